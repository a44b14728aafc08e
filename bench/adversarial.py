#!/usr/bin/env python3
"""Benchmark: the small inputs that once made a run quadratic (issue 33, item 2).

    python3 bench/adversarial.py [--scale K] [--limit SECONDS] [--debug] [--binary PATH]
                                 [--case NAME ...]

Run it through scripts/bench-adversarial, which installs what it needs first. Each case is a
few megabytes that a hostile or careless exporter could send, sized as issue 33's acceptance
names them (times --scale, default 1):

  webhook-alias-chain       100,000 webhook events, each aliasing u<i> to u<i+1>
  webhook-transfer-chain    100,000 TRANSFER events, u<i> to u<i+1>
  webhook-transfer-back     100,000 TRANSFER events, u<i> to u<i+1> and straight back
  subscriber-subscriptions  one subscriber response with 100,000 current subscriptions
  subscriber-refetched      100,000 subscriber responses of one subscriber, each fetched a second later
  one-customer-rows         one customer with 100,000 current purchases in the canonical CSV
  play-linked-chain         100,000 Google Play responses, each linkedPurchaseToken the one before
  play-linked-loop          the same, the first linked to the last (issue 51, item 1)
  play-notifications        one response and 100,000 enveloped notifications of its token
  verdicts-one-customer     100,000 licensing verdicts of one customer (issue 51, item 5)

Issue 51's acceptance sizes: --scale 20 for the Play chains (2,000,000 tokens, under 20 s),
--scale 9 for the notifications and verdicts (900,000, under 10 s and 200 MiB).

Each is audited once by the release build (--debug: the debug build); the script prints each
case's bytes, wall time, CPU time and peak RSS, checks the run's answer (one customer, every
merged id filed under it; every grant written), and exits 1 when a run fails, gives another
answer, or takes longer than --limit seconds (default 10, the acceptance's line).
"""
import argparse
import base64
import json
import os
import shutil
import sqlite3
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
sys.dont_write_bytecode = True
import run  # noqa: E402  (bench/run.py: build, measure, log)

DATA = os.path.join(run.DATA_ROOT, "adversarial")
AS_OF = "2026-11-01T00:00:00Z"
POLICY = """{"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "2.0"}},
 "grandfathered_entitlements": ["premium"], "max_rejected_fraction": 0}
"""


def webhook(event):
    return json.dumps({"api_version": "1.0", "event": event}, separators=(",", ":")) + "\n"


def alias_chain(n, out):
    for i in range(n):
        out.write(webhook({"type": "RENEWAL", "event_timestamp_ms": i, "app_user_id": "u%d" % i,
                           "original_app_user_id": "u%d" % (i + 1)}))


def transfer_chain(n, out):
    for i in range(n):
        out.write(webhook({"type": "TRANSFER", "event_timestamp_ms": i, "transferred_from": ["u%d" % i],
                           "transferred_to": ["u%d" % (i + 1)]}))


def transfer_back(n, out):
    for i in range(n):
        pair = ["u%d" % (i // 2), "u%d" % (i // 2 + 1)]
        if i % 2:
            pair.reverse()
        out.write(webhook({"type": "TRANSFER", "event_timestamp_ms": i, "transferred_from": [pair[0]],
                           "transferred_to": [pair[1]]}))


def subscriptions(n, out):
    subs = {"p%d" % i: {"store": "app_store", "is_sandbox": False, "store_transaction_id": "t%d" % i,
                        "purchase_date": "2026-10-01T00:00:00Z", "expires_date": "2026-12-01T00:00:00Z"}
            for i in range(n)}
    out.write(json.dumps({"request_date": "2026-10-31T12:00:00Z", "subscriber": {
        "original_app_user_id": "solo", "original_application_version": "3.0",
        "original_purchase_date": "2025-01-01T00:00:00Z", "subscriptions": subs,
        "non_subscriptions": {}, "entitlements": {}}}, separators=(",", ":")) + "\n")


def refetched(n, out):
    for i in range(n):
        out.write(json.dumps({"request_date": "2026-10-%02dT%02d:%02d:%02dZ" % (1 + i // 86400, i // 3600 % 24,
                                                                            i // 60 % 60, i % 60),
                              "subscriber": {
                                  "original_app_user_id": "solo", "original_application_version": "3.0",
                                  "original_purchase_date": "2025-01-01T00:00:00Z",
                                  "subscriptions": {"p0": {"store": "app_store", "is_sandbox": False,
                                                           "store_transaction_id": "t%d" % i,
                                                           "purchase_date": "2026-10-01T00:00:00Z",
                                                           "expires_date": "2026-12-01T00:00:00Z"}},
                                  "non_subscriptions": {}, "entitlements": {}}}, separators=(",", ":")) + "\n")


def rows(n, out):
    out.write("transaction_id,customer_id,product_id,product_type,purchase_date,expires_date\n")
    for i in range(n):
        out.write("t%d,solo,p%d,auto_renewable,2026-10-01T00:00:00Z,2026-12-01T00:00:00Z\n" % (i, i))


def play_response(token, linked=None, account=None):
    fields = {"purchaseToken": token}
    if linked is not None:
        fields["linkedPurchaseToken"] = linked
    if account is not None:
        fields["externalAccountIdentifiers"] = {"obfuscatedExternalAccountId": account}
    fields.update({"startTime": "2026-10-01T00:00:00Z", "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE",
                   "lineItems": [{"productId": "pro.monthly", "expiryTime": "2026-12-01T00:00:00Z"}]})
    return json.dumps(fields, separators=(",", ":")) + "\n"


def play_chain(n, out):
    for i in range(n):
        out.write(play_response("t%d" % i, None if i == 0 else "t%d" % (i - 1), "p0" if i == 0 else None))


def play_loop(n, out):
    for i in range(n):
        out.write(play_response("t%d" % i, "t%d" % ((i + n - 1) % n), "p0" if i == 0 else None))


def play_notifications(n, out):
    for i in range(n):
        notification = json.dumps({
            "version": "1.0", "packageName": "com.example.maps", "eventTimeMillis": str(1790000000000 + i),
            "subscriptionNotification": {"version": "1.0", "notificationType": 2, "purchaseToken": "tok",
                                         "subscriptionId": "pro.monthly"}}, separators=(",", ":"))
        data = base64.b64encode(notification.encode()).decode()
        out.write(json.dumps({"message": {"data": data, "messageId": str(i)}, "subscription": "s"},
                             separators=(",", ":")) + "\n")


def verdicts(n, out):
    for i in range(n):
        out.write(json.dumps({"customer_id": "v0", "requestDetails": {"timestampMillis": str(1700000000000 + i)},
                              "accountDetails": {"appLicensingVerdict": "LICENSED"}}, separators=(",", ":")) + "\n")


# name: (file name, writer, events or rows, the customer every id is filed under or None, grants)
CASES = {
    "webhook-alias-chain": ("webhooks.jsonl", alias_chain, lambda n: "u%d" % n, lambda n: 0),
    "webhook-transfer-chain": ("webhooks.jsonl", transfer_chain, lambda n: "u%d" % n, lambda n: 0),
    "webhook-transfer-back": ("webhooks.jsonl", transfer_back, lambda n: "u%d" % ((n - 1) // 2 + 1) if n % 2
                              else "u%d" % ((n - 1) // 2), lambda n: 0),
    "subscriber-subscriptions": ("subscribers.jsonl", subscriptions, None, lambda n: n),
    "subscriber-refetched": ("subscribers.jsonl", refetched, None, lambda n: 1),
    "one-customer-rows": ("transactions.csv", rows, None, lambda n: n),
    "play-linked-chain": ("subscriptions.jsonl", play_chain, None, lambda n: 1),
    "play-linked-loop": ("subscriptions.jsonl", play_loop, None, lambda n: 1),
    "play-notifications": ("play.jsonl", play_notifications, None, lambda n: 1),
    "verdicts-one-customer": ("verdicts.jsonl", verdicts, None, lambda n: 0),
}


def make(name, n):
    folder = os.path.join(DATA, "%s-%d" % (name, n))
    if os.path.isdir(folder):
        return folder
    file_name, writer, _, _ = CASES[name]
    building = folder + ".building"
    shutil.rmtree(building, ignore_errors=True)
    os.makedirs(building)
    with open(os.path.join(building, "policy.json"), "w") as f:
        f.write(POLICY)
    with open(os.path.join(building, file_name), "w") as f:
        writer(n, f)
    if name == "play-notifications":
        # The response that names the notifications' token and its customer.
        with open(os.path.join(building, "subscriptions.jsonl"), "w") as f:
            f.write(play_response("tok", account="p0"))
    if file_name == "webhooks.jsonl":
        # The customer the chain ends at and the one it starts from, so that records meet it.
        with open(os.path.join(building, "customers.csv"), "w") as f:
            f.write("customer_id,platform,original_app_version\nu0,ios,1.0\n")
    os.rename(building, folder)
    return folder


def check(name, n, folder):
    """The run's answer, or a reason it is wrong."""
    _, _, survivor, grants = CASES[name]
    db = sqlite3.connect(os.path.join(folder, "out", "latest", "snapshot.sqlite"))
    customers = [r[0] for r in db.execute("SELECT customer_id FROM customers")]
    if len(customers) != 1:
        return "%d customers, not 1" % len(customers)
    if survivor is not None:
        expected = survivor(n)
        if customers != [expected]:
            return "the customer is %s, not %s" % (customers[0], expected)
        merged = db.execute("SELECT count(*), count(DISTINCT customer_id) FROM merged_ids").fetchone()
        ids = (n - 1) // 2 + 1 if name == "webhook-transfer-back" else n
        if merged != (ids, 1):
            return "merged_ids holds %d ids onto %d customers, not %d onto 1" % (merged[0], merged[1], ids)
    got = db.execute("SELECT count(*) FROM entitlements").fetchone()[0]
    if got < grants(n):
        return "%d grants, not %d" % (got, grants(n))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--debug", action="store_true")
    ap.add_argument("--binary")
    ap.add_argument("--case", action="append", choices=list(CASES))
    a = ap.parse_args()
    binary = os.path.abspath(a.binary) if a.binary else run.build(a.debug)
    n = max(2, int(100_000 * a.scale))
    run.log("adversarial inputs of %d events or rows; %s" % (n, run.machine()))
    failures = []
    print("| case | input | wall | CPU | peak RSS | under %gs |" % a.limit)
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name in a.case or list(CASES):
        folder = make(name, n)
        shutil.rmtree(os.path.join(folder, "out"), ignore_errors=True)
        inputs = sorted(f for f in os.listdir(folder) if f != "policy.json" and f != "out" and
                        not f.startswith("run."))
        cmd = [binary, "audit", "--policy", "policy.json", "--as-of", AS_OF, "--out", "out"] + inputs
        code, wall, rss, cpu = run.measure(cmd, os.path.join(folder, "run"), cwd=folder)
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in inputs)
        wrong = "exit %d" % code if code != 0 else check(name, n, folder)
        if wrong is None and wall > a.limit:
            wrong = "took %.2f s" % wall
        if wrong:
            failures.append("%s: %s" % (name, wrong))
        print("| %s | %s | %.2f s | %.2f s | %.0f MiB | %s |" % (
            name, run.human_size(size), wall, cpu, rss, "no: " + wrong if wrong else "yes"), flush=True)
    for failure in failures:
        run.log("bench-adversarial: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
