#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# sched-ab's statistics (tests/unit/stats.c), built by `make check-unit`.
exec "$(dirname "$0")/../../build/unit/stats"
