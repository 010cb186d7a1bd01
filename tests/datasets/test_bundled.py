"""The bundled data sets (dpcore.datasets.bundled): each column against its CSV text read independently, the catalogue,
and the refusal of an unknown key."""

import csv
import math
import re
from pathlib import Path

import numpy as np
import pytest

import dpcore
from dpcore.core.validation import InvalidParameterError
from dpcore.datasets import DATASETS, Dataset, load_dataset

FOLDER = Path(dpcore.__file__).parent / "datasets"

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {"load_dataset": dict(key="anes96")}

# (key, rows, min, max, mean) read off the CSVs once; the test below recomputes them from the text.
KNOWN = [("engel", 235, 377.058368850099, 4957.81302447901, 982.4730439931191),
         ("anes96", 944, 19.0, 91.0, 47.043432203389834),
         ("randhie", 20_190, 0.0, 77.0, 2.860425953442298)]


def csv_column(key: str) -> tuple[str, list[float]]:
    """The header and the values of ``<key>.csv``, read with the csv module and float()."""
    with open(FOLDER / f"{key}.csv", newline="", encoding="utf-8") as file:
        header, *rows = list(csv.reader(file))
    assert all(len(row) == 1 for row in rows)
    return header[0], [float(row[0]) for row in rows]


def test_the_data_sets_come_in_teaching_order():
    assert list(DATASETS) == ["engel", "anes96", "randhie"]
    assert all(isinstance(dataset, Dataset) and dataset.key == key for key, dataset in DATASETS.items())


@pytest.mark.parametrize("key, rows, low, high, mean", KNOWN, ids=[k[0] for k in KNOWN])
def test_each_column_is_its_csv(key, rows, low, high, mean):
    header, values = csv_column(key)
    loaded = load_dataset(key)
    assert loaded.dtype == np.float64 and loaded.shape == (rows,) and np.all(np.isfinite(loaded))
    assert header == DATASETS[key].column and DATASETS[key].rows == rows
    assert loaded.tolist() == values
    assert (min(values), max(values)) == (low, high) and math.fsum(values) / rows == pytest.approx(mean, rel=1e-12)


def test_each_column_has_the_shape_it_teaches():
    income, age, visits = (load_dataset(key) for key in DATASETS)
    assert income.max() > 5 * np.median(income)  # a heavy right tail: the largest is far out
    assert income.mean() > np.median(income)
    assert 18 <= age.min() and age.max() <= 100  # the public range of an adult's age
    assert np.all(visits == np.round(visits)) and visits.min() == 0
    assert visits.max() > 20 * np.median(visits)  # outliers


def test_every_data_set_states_its_source_and_licence():
    for dataset in DATASETS.values():
        assert dataset.licence == "public domain"
        assert re.search(r"\b(?:18|19|20)\d\d\b", dataset.source), dataset.source
        assert "http" in dataset.reference
        assert all(getattr(dataset, name).strip() for name in ("title", "column", "unit", "description", "teaches"))


def test_every_bundled_csv_is_catalogued():
    assert sorted(path.stem for path in FOLDER.glob("*.csv")) == sorted(DATASETS)


def test_an_unknown_key_is_refused_naming_the_choices():
    with pytest.raises(InvalidParameterError) as caught:
        load_dataset("iris")
    assert str(caught.value) == "key must be one of 'engel', 'anes96', 'randhie'; got 'iris'"
