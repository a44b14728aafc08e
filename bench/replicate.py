#!/usr/bin/env python3
"""Writes COPIES disjoint copies of a generated set as one set, for a scale run when
bench/generate.py would take too long (10M customers take it over an hour on 2 cores):

    python3 bench/replicate.py SOURCE OUT COPIES

Every customer_id, transaction_id and original_transaction_id of copy k gets the suffix
`~k`, so the copies share no customer and no transaction; classes and flags per customer
are those of the source set. Python 3 stdlib only; quoted line breaks are kept.
"""
import csv
import os
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    for name, ids in (("customers.csv", ["customer_id"]),
                      ("transactions.csv", ["transaction_id", "original_transaction_id", "customer_id"])):
        with open(os.path.join(out, name), "w", newline="", encoding="utf-8") as target:
            writer = csv.writer(target, lineterminator="\n")
            for copy in range(copies):
                with open(os.path.join(source, name), newline="", encoding="utf-8") as f:
                    reader = csv.reader(f)
                    header = next(reader)
                    if copy == 0:
                        writer.writerow(header)
                    places = [header.index(column) for column in ids if column in header]
                    suffix = "~%d" % copy
                    for row in reader:
                        for place in places:
                            if place < len(row) and row[place]:
                                row[place] += suffix
                        writer.writerow(row)


if __name__ == "__main__":
    main()
