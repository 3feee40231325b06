"""Package attributes loaded on first use (PEP 562 ``__getattr__``), so that a package's
front door imports nothing until a caller asks for a name. Imports nothing itself."""


def attributes(table, package):
    """A module ``__getattr__`` serving ``table`` (name -> (module, attribute))."""

    def __getattr__(name):
        try:
            module_name, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        import importlib

        return getattr(importlib.import_module(module_name), attribute)

    return __getattr__
