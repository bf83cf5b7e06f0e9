"""A trial of the single-server Hub, before any learner has an account on the machine: the
Hub of jupyterhub_config.py, with three changes. Any name logs in with any password; every
learner's server runs as the account that started the Hub, with its home in /tmp/<name>
(JupyterHub's simple spawner); and the Hub listens on this machine only, at
http://127.0.0.1:8000/. Never for a class: anyone who reaches the Hub gets in, and learners'
servers are not kept apart.

As root, in the environment of deploy/README.md (`conda activate penang-rummy`; or start the
Hub by its full path, `<environment>/bin/jupyterhub`), from a folder for the Hub's database:

    mkdir -p /tmp/penang-trial && cd /tmp/penang-trial
    jupyterhub -f /opt/penang-rummy/deploy/jupyterhub/jupyterhub_trial_config.py

Then open http://127.0.0.1:8000/ on the machine (or through `ssh -L 8000:127.0.0.1:8000`) and
log in as any name, e.g. alice, then as bob in another browser.
"""

import os

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

# Everything of the real Hub first: PATH, the default page (the site), timeouts, idle culling.
load_subconfig(os.path.join(os.path.dirname(__file__), "jupyterhub_config.py"))  # type: ignore[name-defined]  # noqa: F821

# This machine only.
c.JupyterHub.bind_url = "http://127.0.0.1:8000"
# Any name and any password (JupyterHub's dummy authenticator): for a trial only.
c.JupyterHub.authenticator_class = "dummy"
# Servers run as the Hub's own account, each with a home folder in /tmp (no system accounts).
c.JupyterHub.spawner_class = "simple"
# That account is root here: a Jupyter server refuses to run as root unless told it may. Without
# this each login fails, after the Hub has waited Spawner.http_timeout (120 s) for the server.
if os.geteuid() == 0:
    c.Spawner.args = ["--allow-root"]
