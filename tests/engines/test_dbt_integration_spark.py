"""The tests of test_dbt_integration.py on Spark, whose build is the suite's
longest: a module of its own, so that pytest-xdist (--dist loadfile) runs it on
a worker of its own, beside the other engines' builds."""

from __future__ import annotations

from .test_dbt_integration import (  # noqa: F401 (collected here, on Spark)
    test_dbt_build_succeeds,
    test_every_assertion_ran_and_passed,
    test_the_project_folder_keeps_no_engine_state,
)

MODULE_ENGINES = ("spark",)
