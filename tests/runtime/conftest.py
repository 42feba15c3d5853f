import pytest

from tests.export.exported_models import RAW_TEXT_CARD, archive_of, exported


class _Lazy(dict):
    """name -> value, made on first access, so a test only pays for the models it uses."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, name):
        self[name] = value = self._make(name)
        return value


@pytest.fixture(scope="session")
def export_base(tmp_path_factory):
    return tmp_path_factory.mktemp("exported")


@pytest.fixture(scope="session")
def parser_archives(export_base, request):
    """name -> archive: "teacher" (gold UPOS), "quickstart" (raw text: characters, UPOS head),
    "all_features" (characters, UPOS in and out, 2 layers) and "words_only" (neither), both
    barely trained."""
    def make(name):
        quickstart = request.getfixturevalue("quickstart_archive") if name == "quickstart" else None
        return archive_of(name, export_base, quickstart)
    return _Lazy(make)


@pytest.fixture(scope="session")
def parser_folders(export_base, parser_archives):
    """name -> exported runtime folder of `parser_archives[name]`."""
    return _Lazy(lambda name: exported(name, parser_archives[name], export_base,
                                       RAW_TEXT_CARD if name == "quickstart" else None))
