"""Real data sets bundled with the library: a public-domain numeric column each, shipped as a CSV in this package.

===========  ==========================================================================================
``bundled``  :class:`Dataset` (what a column is, its source and licence), :data:`DATASETS`, :func:`load_dataset`
===========  ==========================================================================================

>>> list(DATASETS)
['engel', 'anes96', 'randhie']
>>> load_dataset("anes96").size
944
"""

from .bundled import COLUMN, DATASETS, Column, Dataset, load_dataset

__all__ = ["DATASETS", "Dataset", "load_dataset", "Column", "COLUMN"]
