"""Schemathesis against the OpenAPI schema that the running server serves.

Every operation is fed generated requests (valid and odd strings, bodies, numbers); every
response must be documented (status, content type, JSON schema) and never a server error but
the designed 503 with ``Retry-After`` (a number puzzle the maker did not finish within the small
time cap, as a full lane would be). (Not the check that every schema-valid
request is accepted: a schema cannot say that a square is on the board or that a board is under
the size cap, and those requests rightly get HTTP 400 naming the problem.) The server runs for real (uvicorn, 127.0.0.1, a free port): with small limits for the
schema-valid run, so that it is quick, and with the real limits for the run of negative data
(schema-invalid types, patterns, missing parameters and bodies), which must all be refused with a
documented 4xx and a JSON error. (Schemathesis's pytest plugin, ``from_fixture``, does not work with pytest 9, so each
operation's strategy is driven by Hypothesis directly.)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error, positive_data_acceptance

from knightstour.web.app import Limits, create_app
from knightstour.web.server import running_server
from knightstour.web.state import ensure_compiled
from tiers import examples

SMALL = Limits(
    max_squares=400,
    time_limit=0.5,
    puzzle_max_squares=100,
    hint_time_limit=0.5,
    gif_max_squares=64,
    workers=2,
    count_time_limit=0.5,
)


def warmed() -> None:
    """The kernels the server's routes run, loaded before it takes a request (compiled first
    when a kernel module changed since ``make`` filled the cache, which ``make test-all`` does
    not fill again): compiled under a loaded machine, they took minutes on the requests' clock
    (a search waits for the app's warm-up), and the client gives up after 10 s. What the fuzz
    checks is the answers, not a first compile."""
    from knightstour.warm import warm

    ensure_compiled()  # the app's own warm-up (the searches'): its background one is then a no-op
    warm(only=["number puzzles"])  # /api/numbers' kernels, which the app's warm-up leaves out


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    warmed()
    with running_server(create_app(SMALL)) as url:
        yield url


@pytest.fixture(scope="module")
def api_schema(server_url: str) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{server_url}/openapi.json")


#: every operation of the API; the test below checks that the schema has no other
OPERATIONS = [
    ("GET", "/api/solve"),
    ("GET", "/api/exists"),
    ("GET", "/api/puzzle"),
    ("GET", "/api/count"),
    ("GET", "/api/limits"),
    ("POST", "/api/render/{fmt}"),
    ("GET", "/api/palette"),
    ("GET", "/api/about"),
    ("GET", "/api/daily"),
    ("GET", "/api/library"),
    ("GET", "/api/library/tours"),
    ("GET", "/api/library/tours/{tour_id}"),
    ("GET", "/api/library/compare"),
    ("GET", "/api/library/magic-classes"),
    ("GET", "/api/numbers"),
    ("POST", "/api/numbers/check"),
    ("POST", "/api/numbers/hint"),
]


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_api_conforms_to_its_schema(
    api_schema: schemathesis.BaseSchema, method: str, path: str
) -> None:
    operation = api_schema[path][method]

    @given(case=operation.as_strategy())
    @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
    def check(case: schemathesis.Case) -> None:
        response = case.call_and_validate(
            excluded_checks=[positive_data_acceptance, not_a_server_error]
        )
        busy = response.status_code == 503 and "retry-after" in response.headers
        assert response.status_code < 500 or busy, response.text

    check()


def test_the_schema_is_served_and_every_operation_is_fuzzed(
    api_schema: schemathesis.BaseSchema,
) -> None:
    served = {
        (method.upper(), path)
        for path, item in api_schema.raw_schema["paths"].items()
        for method in item
    }
    assert served == set(OPERATIONS)


# -- negative and malformed data against the real limits --------------------------------------


@pytest.fixture(scope="module")
def real_server_url() -> Iterator[str]:
    """The server as ``knightstour serve`` runs it: the default limits, nothing shrunk."""
    warmed()
    with running_server(create_app(Limits())) as url:
        yield url


@pytest.fixture(scope="module")
def real_schema(real_server_url: str) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{real_server_url}/openapi.json")


#: the operations that take input (a request to /api/limits cannot be malformed)
NEGATIVE_OPERATIONS = [
    op
    for op in OPERATIONS
    if op not in {("GET", "/api/limits"), ("GET", "/api/palette"), ("GET", "/api/about"),
                  ("GET", "/api/library")}
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("method", "path"), NEGATIVE_OPERATIONS)
def test_negative_and_malformed_data_is_refused_cleanly(
    real_schema: schemathesis.BaseSchema, method: str, path: str
) -> None:
    """Schema-invalid requests (wrong types, patterns, missing parameters, bad bodies) against
    the real limits: each is a documented 4xx with a JSON error, never a 5xx."""
    operation = real_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))
    @settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
    def check(case: schemathesis.Case) -> None:
        response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
        assert response.status_code < 500, response.text
        if response.status_code >= 400:
            assert set(response.json()) == {"error"}, response.text

    check()
