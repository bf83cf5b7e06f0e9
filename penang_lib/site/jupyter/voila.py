# Voila's config file for the tutorial site (`penang-rummy serve` passes this folder as
# --Voila.config_file_paths): the settings are penang_lib.site.settings.configure.
from penang_lib.site.settings import configure

configure(get_config())  # type: ignore[name-defined]  # noqa: F821 (given by traitlets)
