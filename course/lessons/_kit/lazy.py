"""A module, or one name in it, imported on first use.

Matplotlib takes a good part of a second to import. The explorers need it only once they
draw, and a notebook being graded never draws them, so the modules that hold explorers
import it through this.
"""
import importlib


class Lazy:
    """Stands in for ``module`` (or ``module.name``) until first called or read from."""

    def __init__(self, module: str, name: str | None = None):
        self._where = (module, name)
        self._target = None

    def _load(self):
        if self._target is None:
            module, name = self._where
            loaded = importlib.import_module(module)
            self._target = getattr(loaded, name) if name else loaded
        return self._target

    def __call__(self, *args, **kwargs):
        return self._load()(*args, **kwargs)

    def __getattr__(self, attribute):
        return getattr(self._load(), attribute)
