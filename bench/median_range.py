# SPDX-License-Identifier: GPL-2.0
"""How the seed workloads' summaries print a figure over repetitions."""
import statistics


def median_range(values, unit="", digits=0):
    """'median (min-max)', or the one value when all runs agree; '-' for none"""
    if not values:
        return "-"
    med = statistics.median(values)
    if min(values) == max(values):
        return f"{med:.{digits}f}{unit}"
    return f"{med:.{digits}f}{unit} ({min(values):.{digits}f}-{max(values):.{digits}f})"
