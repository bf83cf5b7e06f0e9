"""JupyterHub on one school server: each learner logs in with their account on the machine
and lands on the tutorial site.

Set-up, once, as root, with the repository in /opt/penang-rummy (readable by every learner's
account, as the kit is installed from there); deploy/README.md says more:

    cd /opt/penang-rummy
    conda env create -f environment.yml        # the kit, Jupyter, jupyter-server-proxy
    conda activate penang-rummy
    conda install -c conda-forge jupyterhub jupyterhub-idle-culler
    mkdir -p /var/lib/penang-hub && cd /var/lib/penang-hub   # the Hub's database goes here
    jupyterhub -f /opt/penang-rummy/deploy/jupyterhub/jupyterhub_config.py

The Hub runs as root so that it can start each learner's server as that learner, from this
same environment: their server's /penang/ is the site (penang_lib/site/proxy.py).

To try the Hub before any learner has an account, jupyterhub_trial_config.py loads this file
and changes only the login, the spawner and the address (see there).
"""

import os
import sys

from penang_lib.tables.address import HUB_SERVICE, TABLES_PAGE_PATH_ENV, TABLES_PATH, TABLES_URL_ENV

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

# The programs the Hub runs (jupyterhub-singleuser for each learner, the Hub's proxy
# configurable-http-proxy, and the site's Python) are in the bin folder of the environment
# whose Python runs this Hub. A Hub started by its full path, as a systemd unit starts it,
# does not have that folder on its PATH: it is put first here, and learners' servers keep it.
ENV_BIN = os.path.dirname(sys.executable)
os.environ["PATH"] = os.pathsep.join([ENV_BIN, *filter(None, [os.environ.get("PATH")])])

# The Hub's own address: every address of this server, port 8000 (learners use
# http://<server>:8000/). To listen on one address only, put it here, e.g.
# "http://192.168.1.10:8000"; behind nginx with HTTPS, use "http://127.0.0.1:8000" and pass the
# Hub's whole address space to it.
c.JupyterHub.bind_url = "http://:8000"

# Who may log in: accounts of this machine in the group "penang-learners"
# (groupadd penang-learners; usermod -aG penang-learners <account>).
c.PAMAuthenticator.allowed_groups = {"penang-learners"}
c.Authenticator.admin_users = set()  # e.g. {"teacher"}: may see and stop learners' servers

# Every learner's server opens on the tutorial site.
c.Spawner.default_url = "/penang/"
# Each learner's server: the program of this environment (installed with jupyterhub), named
# by its full path; the Hub's PATH (with ENV_BIN first) is kept for the learner's server.
c.Spawner.cmd = [os.path.join(ENV_BIN, "jupyterhub-singleuser")]
# Starting a server and the site behind it takes seconds; a class arriving at once shares
# the machine's cores.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

# Stop a learner's server when nothing has reached it for 30 minutes (the site already
# culls the kernel of a lesson page left idle for 15).
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            "--timeout=1800",
            "--cull-every=300",
        ],
    }
]

# Play together (lesson 12): one table service for the whole hub, so that learners, each on a
# server of their own, sit at the same tables. The Hub starts it and passes
# <hub>/services/penang-tables/ to it (its websocket: .../penang/tables, which the teacher's page
# opens from the browser). The learners' kernels reach it directly, on this machine, through
# PENANG_TABLES_URL; with it set, a learner's site runs no service of its own. Its tables are
# kept in tables.sqlite in the Hub's folder (where jupyterhub was started), so a restarted
# Hub gives every table back. PENANG_TABLES_PORT (default 8870) changes its port.
TABLES_PORT = int(os.environ.get("PENANG_TABLES_PORT", "8870"))
TABLES_SOCKET = f"/services/{HUB_SERVICE}/{TABLES_PATH}"
c.JupyterHub.services.append(
    {
        "name": HUB_SERVICE,
        "url": f"http://127.0.0.1:{TABLES_PORT}",
        "command": [
            sys.executable,
            "-m",
            "penang_lib.site.tables_service",
            f"--port={TABLES_PORT}",
            f"--journal={os.path.join(os.getcwd(), 'tables.sqlite')}",
        ],
    }
)
c.Spawner.environment = {
    TABLES_URL_ENV: f"ws://127.0.0.1:{TABLES_PORT}{TABLES_SOCKET}",
    TABLES_PAGE_PATH_ENV: TABLES_SOCKET,
}

c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "description": "Stops learners' servers that have been idle for 30 minutes",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
