import inspect
from pathlib import Path

import xiangqi_rs as xq


def public(obj):
    return [name for name in dir(obj) if not name.startswith("_")]


def test_every_class_and_function_has_a_docstring():
    missing = []
    for name in public(xq):
        item = getattr(xq, name)
        if inspect.ismodule(item) or not (inspect.isclass(item) or callable(item)):
            continue
        if not (item.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(item) and not issubclass(item, BaseException):
            for member in public(item):
                if not (getattr(item, member).__doc__ or "").strip():
                    missing.append(f"{name}.{member}")
    assert missing == []


def test_the_stubs_name_every_public_name_of_the_module():
    stub = (Path(__file__).resolve().parents[1] / "xiangqi_rs.pyi").read_text()
    for name in public(xq):
        if inspect.ismodule(getattr(xq, name)):
            continue
        assert f"class {name}" in stub or f"def {name}(" in stub or f"{name}:" in stub, name


def test_the_installed_package_is_typed():
    installed = Path(xq.__file__).parent
    assert (installed / "py.typed").exists()
    assert (installed / "__init__.pyi").read_text() == (Path(__file__).resolve().parents[1] / "xiangqi_rs.pyi").read_text()
