"""The real data sets shipped with the library: one public-domain numeric column each, read from a CSV of the package.

Each column was taken from the data sets bundled with statsmodels 0.14.5 (BSD-3-Clause), whose ``data.py`` of each
data set states its source and that it is in the public domain; ``docs/datasets.md`` says why each is in the lab.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..core.validation import Array, Choice, Constraint, InvalidDataError, validated

__all__ = ["Dataset", "DATASETS", "load_dataset", "Column", "COLUMN"]


@dataclass(frozen=True)
class Dataset:
    """A bundled data set: one numeric column of a real, public-domain table, and where it comes from.

    Attributes
    ----------
    key : str
        The name :func:`load_dataset` takes (also the CSV's file name, ``<key>.csv``).
    title : str
        The data set's name, as a page shows it.
    column : str
        The column's name (the CSV's header).
    unit : str
        The unit of the values.
    description : str
        What one value is, in a student's words.
    teaches : str
        Why the column is in the lab: what makes private estimation on it hard.
    source : str
        The citation, by authors and year.
    licence : str
        The licence (every bundled column is in the public domain).
    reference : str
        Where the data come from (URL or reference).
    rows : int
        The number of values.

    Examples
    --------
    >>> DATASETS["engel"].unit
    'Belgian francs per year'
    """

    key: str
    title: str
    column: str
    unit: str
    description: str
    teaches: str
    source: str
    licence: str
    reference: str
    rows: int


#: The bundled data sets by key, in teaching order: a heavy tail, a hard range, a count with outliers.
DATASETS: dict[str, Dataset] = {dataset.key: dataset for dataset in (
    Dataset(key="engel", title="Engel's Belgian household budgets (1857)", column="income",
            unit="Belgian francs per year",
            description="the yearly income of one working-class household in Belgium in 1857",
            teaches="a heavy right tail: a few households earn several times the typical income, so the clipping "
                    "bound decides the private mean",
            source="Engel (1857), as used by Koenker & Bassett (1982)", licence="public domain",
            reference="Koenker, R. and Bassett, G. (1982) Robust Tests of Heteroscedasticity based on Regression "
                      "Quantiles; Econometrica 50, 43-61. Distributed with the quantreg package for R "
                      "(http://CRAN.R-project.org/package=quantreg) and with statsmodels (statsmodels.datasets.engel)",
            rows=235),
    Dataset(key="anes96", title="American National Election Studies 1996", column="age", unit="years",
            description="the age of one adult who answered the 1996 American election survey",
            teaches="a hard range: ages lie between 18 and about 100 whatever the data, so public bounds are easy to "
                    "state without looking at the data",
            source="The American National Election Studies (1996), a subset", licence="public domain",
            reference="The American National Election Studies, http://www.electionstudies.org/ (statsmodels."
                      "datasets.anes96)",
            rows=944),
    Dataset(key="randhie", title="RAND Health Insurance Experiment", column="mdvis", unit="visits per year",
            description="how many times one person went to see a doctor as an outpatient in one year of the experiment",
            teaches="a count with outliers: most people see a doctor a few times a year, a handful dozens of times",
            source="The RAND Health Insurance Experiment, as used by Cameron & Trivedi (2005)",
            licence="public domain",
            reference="Cameron, A. C. and Trivedi, P. K. (2005) Microeconometrics: Methods and Applications, "
                      "Cambridge University Press; data from http://cameron.econ.ucdavis.edu/mmabook/mmadata.html "
                      "(statsmodels.datasets.randhie; http://www.rand.org/health/projects/hie.html)",
            rows=20_190),
)}


@validated(key=Choice(tuple(DATASETS)))
def load_dataset(key: str) -> np.ndarray:
    """The values of a bundled data set's column, read from the CSV shipped in the package.

    Parameters
    ----------
    key : str
        A key of :data:`DATASETS`: ``"engel"``, ``"anes96"`` or ``"randhie"``.

    Returns
    -------
    numpy.ndarray
        The column as a float64 vector of ``DATASETS[key].rows`` finite values, in the file's order.

    Raises
    ------
    InvalidParameterError
        If ``key`` is not a key of :data:`DATASETS` (the message names ``key`` and the choices).

    Examples
    --------
    >>> income = load_dataset("engel")
    >>> income.size, round(float(income.min()), 1), round(float(income.max()), 1)
    (235, 377.1, 4957.8)
    >>> age = load_dataset("anes96")
    >>> age.size, float(age.min()), float(age.max())
    (944, 19.0, 91.0)
    >>> visits = load_dataset("randhie")
    >>> visits.size, float(np.median(visits)), float(visits.max())
    (20190, 1.0, 77.0)
    """
    return _read(key).copy()


@functools.lru_cache(maxsize=len(DATASETS))
def _read(key: str) -> np.ndarray:
    """The column of ``key``, read once per process and read-only.

    Callers get a copy, or (through the :data:`COLUMN` constraint) this array, which no function writes into.
    """
    dataset = DATASETS[key]
    text = resources.files(__name__.rpartition(".")[0]).joinpath(f"{key}.csv").read_text(encoding="utf-8")
    header, *cells = text.split()
    values = np.array(cells, dtype=np.float64)
    if header != dataset.column or values.size != dataset.rows or not np.all(np.isfinite(values)):
        raise InvalidDataError(f"the bundled file {key}.csv is damaged: reinstall dpcore")
    values.setflags(write=False)
    return values


@dataclass(frozen=True)
class Column(Constraint):
    """A column of numbers: an array of values, or the key of a bundled data set standing for its values.

    The array is 1-D with at least ``min_size`` finite values; a key is one of :data:`DATASETS`
    (:func:`load_dataset`). A key is a JSON value, so a call on a bundled column can be cached and shared by its key;
    an array is someone's own data.

    Examples
    --------
    >>> COLUMN.check("x", "anes96").size, COLUMN.check("x", [1.0, 2.0]).tolist()
    (944, [1.0, 2.0])
    """

    min_size: int = 2

    def describe(self) -> str:
        """The column in words."""
        return (f"a 1-D array of at least {self.min_size} finite values, or the key of a bundled data set "
                f"({', '.join(map(repr, DATASETS))})")

    def check(self, name: str, value: object) -> np.ndarray:
        """The values of ``value`` (a data set's key, or an array), checked."""
        if isinstance(value, str):
            if value not in DATASETS:
                self.fail(name, value)
            return _read(value)
        return Array(ndim=(1,), min_size=self.min_size).check(name, value)

    def bad_values(self) -> list[object]:
        """An unknown key, a 2-D array, too few values, a non-finite value."""
        return ["iris", np.zeros((2, 2)), np.zeros(self.min_size - 1), np.array([1.0, np.nan])]


COLUMN = Column()  #: the column argument of the real-data lesson and figures
