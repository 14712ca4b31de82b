#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tools/lib unit tests (tests/unit/lib.c), built by `make check-unit`.
exec "$(dirname "$0")/../../build/unit/lib"
