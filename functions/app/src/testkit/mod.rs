//! Conformance suites for the ports. Each adapter crate runs them against its adapter with
//! `item_store_conformance!`, `blob_store_conformance!`, `job_queue_conformance!` and (an
//! outside timing service) `schedules_conformance!`.

pub mod blob;
pub mod queue;
pub mod schedules;
pub mod store;

/// Generates one `#[tokio::test]` per item-store case; `$factory` is an async expression that
/// yields a fresh, empty `Arc<dyn ItemStore>`.
#[macro_export]
macro_rules! item_store_conformance {
    ($factory:expr) => {
        $crate::__conformance_cases!(
            item_store,
            $factory,
            $crate::testkit::store,
            [
                put_get_round_trip,
                conditional_put,
                conditional_delete,
                query_sort_conditions,
                query_paging,
                secondary_indexes,
                counters,
                concurrent_counters,
                transactions,
                transaction_limits,
                batches,
                bad_cursor,
                byte_order_of_sort_keys,
                catalogue_snapshots
            ]
        );
    };
}

/// Generates one `#[tokio::test]` per blob-store case.
#[macro_export]
macro_rules! blob_store_conformance {
    ($factory:expr) => {
        $crate::__conformance_cases!(
            blob_store,
            $factory,
            $crate::testkit::blob,
            [put_get_delete, rejects_bad_keys, download_urls]
        );
    };
}

/// Generates one `#[tokio::test]` per job-queue case; the queue must dead-letter a job on its
/// fourth delivery (maximum 3 deliveries).
#[macro_export]
macro_rules! job_queue_conformance {
    ($factory:expr) => {
        $crate::__conformance_cases!(
            job_queue,
            $factory,
            $crate::testkit::queue,
            [
                enqueue_claim_ack,
                visibility_timeout_redelivers,
                retry_redelivers,
                dead_letters_after_max_deliveries,
                bury_dead_letters_at_once,
                bad_receipt,
                many_jobs
            ]
        );
    };
}

/// Generates one `#[tokio::test]` per case of a timing service that keeps schedules outside
/// the process (EventBridge Scheduler).
#[macro_export]
macro_rules! schedules_conformance {
    ($factory:expr) => {
        $crate::__conformance_cases!(
            schedules,
            $factory,
            $crate::testkit::schedules,
            [put_get_replace_delete, schedules_are_independent]
        );
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_cases {
    ($suite:ident, $factory:expr, $module:path, [$($case:ident),+ $(,)?]) => {
        mod $suite {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    use $module as cases;
                    let subject = $factory.await;
                    cases::$case(subject).await;
                }
            )+
        }
    };
}
