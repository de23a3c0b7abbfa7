"""What every table of the store shares: its library's connection, and SQLite's errors turned
into clean ones.

A table object (:class:`~knightstour.library.store.tours.Tours`,
:class:`~knightstour.library.store.runs.Runs`, ...) is made by its
:class:`~knightstour.library.store.Library` and reads and writes through the library's one
connection; :func:`sql` wraps each method so that an SQLite failure leaves it as an
:class:`~knightstour.errors.InvalidInputError` naming the file and the problem.
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from knightstour.errors import InvalidInputError

if TYPE_CHECKING:
    from knightstour.library.store.library import Library

__all__ = ["Table", "sql"]

_F = TypeVar("_F", bound=Callable[..., Any])


class _Failing(Protocol):
    def failure(self, e: sqlite3.Error) -> InvalidInputError: ...


def sql(method: _F) -> _F:
    """Turn the SQLite errors of a method (or of the generator it returns) into an
    :class:`InvalidInputError` naming the file and the problem (``self.failure``)."""
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def gen(self: _Failing, *args: Any, **kwargs: Any) -> Any:
            try:
                return (yield from method(self, *args, **kwargs))
            except sqlite3.Error as e:
                raise self.failure(e) from None

        return gen  # type: ignore[return-value]

    @functools.wraps(method)
    def call(self: _Failing, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as e:
            raise self.failure(e) from None

    return call  # type: ignore[return-value]


class Table:
    """A part of the store: its library (the connection, the file's name and schema version)."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    @property
    def db(self) -> sqlite3.Connection:
        return self.lib.db

    @property
    def path(self) -> str:
        return self.lib.path

    @property
    def version(self) -> int:
        return self.lib.version

    def failure(self, e: sqlite3.Error) -> InvalidInputError:
        """The clean error for SQLite's ``e`` on the library's file."""
        return self.lib.failure(e)
