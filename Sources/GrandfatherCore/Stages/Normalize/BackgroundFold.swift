import GrandfatherEngine

/// Folds a reader's batches of transactions into the ledger on another thread while the
/// reader maps the next ones (`BackgroundWork`): for a source that reads one file on one
/// thread (a file of Google Play responses, weighed as one), where folding would otherwise
/// wait for mapping and mapping for folding while the second core idles. The ledger's fold
/// is commutative and takes its own locks, so folding later, elsewhere, changes nothing it
/// decides.
struct BackgroundFold {
    /// What the fold's thread keeps: its scratch, its fingerprints and the sandbox rows it
    /// passed over.
    private struct Fold {
        var scratch: [[Int32]] = []
        var pending: ShardedLedger.PendingFingerprints
        var sandbox = 0
    }

    private let work: BackgroundWork<Fold, TransactionBatch>
    private let ledger: ShardedLedger

    init(ledger: ShardedLedger, pending: ShardedLedger.PendingFingerprints) {
        self.ledger = ledger
        work = BackgroundWork(Fold(pending: pending)) { fold, batch in
            fold.sandbox += ledger.add(batch, scratch: &fold.scratch, pending: &fold.pending)
        }
    }

    /// Folds `batch` on the fold's thread; the caller must not use it again.
    func fold(_ batch: consuming TransactionBatch) {
        work.hand(batch)
    }

    /// Waits for every batch handed over to be folded, writes their fingerprints, and gives
    /// how many of their rows were sandbox rows (not folded).
    func finish() -> Int {
        work.finish { fold in
            ledger.write(&fold.pending)
            return fold.sandbox
        }
    }
}
