//! Job queue conformance cases. The queue under test dead-letters on the fourth delivery.

use crate::ports::{JobQueue, QueueError};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

type Queue = Arc<dyn JobQueue>;

const LONG: Duration = Duration::from_secs(60);

pub async fn enqueue_claim_ack(queue: Queue) {
    assert!(queue.claim(LONG).await.unwrap().is_none());
    let id = queue.enqueue(r#"{"report":"r1"}"#).await.unwrap();
    let job = queue.claim(LONG).await.unwrap().expect("a job");
    assert_eq!(job.id, id);
    assert_eq!(job.payload, r#"{"report":"r1"}"#);
    assert_eq!(job.attempts, 1);
    assert!(
        queue.claim(LONG).await.unwrap().is_none(),
        "a claimed job is hidden"
    );
    queue.ack(&job.receipt).await.unwrap();
    assert!(queue.claim(LONG).await.unwrap().is_none());
    assert!(queue.dead_letters().await.unwrap().is_empty());
}

pub async fn visibility_timeout_redelivers(queue: Queue) {
    let id = queue.enqueue("v").await.unwrap();
    let first = queue.claim(Duration::from_secs(1)).await.unwrap().unwrap();
    assert_eq!(first.attempts, 1);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let second = queue
        .claim(LONG)
        .await
        .unwrap()
        .expect("redelivered after the timeout");
    assert_eq!(second.id, id);
    assert_eq!(second.attempts, 2);
    queue.ack(&second.receipt).await.unwrap();
}

pub async fn retry_redelivers(queue: Queue) {
    queue.enqueue("r").await.unwrap();
    let first = queue.claim(LONG).await.unwrap().unwrap();
    queue.retry(&first.receipt, Duration::ZERO).await.unwrap();
    let second = queue.claim(LONG).await.unwrap().expect("available again");
    assert_eq!(second.payload, "r");
    assert_eq!(second.attempts, 2);
    queue.ack(&second.receipt).await.unwrap();
}

pub async fn dead_letters_after_max_deliveries(queue: Queue) {
    queue.enqueue("poison").await.unwrap();
    for attempt in 1..=3 {
        let job = queue.claim(LONG).await.unwrap().expect("delivered");
        assert_eq!(job.attempts, attempt);
        queue.retry(&job.receipt, Duration::ZERO).await.unwrap();
    }
    assert!(
        queue.claim(LONG).await.unwrap().is_none(),
        "a fourth delivery is not made"
    );
    assert_eq!(
        queue.dead_letters().await.unwrap(),
        vec!["poison".to_string()]
    );
}

pub async fn bury_dead_letters_at_once(queue: Queue) {
    queue.enqueue("hopeless").await.unwrap();
    queue.enqueue("fine").await.unwrap();
    let job = queue.claim(LONG).await.unwrap().expect("delivered");
    assert_eq!(job.payload, "hopeless");
    queue.bury(&job).await.unwrap();
    assert_eq!(
        queue.dead_letters().await.unwrap(),
        vec!["hopeless".to_string()]
    );
    let next = queue.claim(LONG).await.unwrap().expect("the other job");
    assert_eq!(next.payload, "fine");
    queue.ack(&next.receipt).await.unwrap();
    assert!(queue.claim(Duration::ZERO).await.unwrap().is_none());
}

pub async fn bad_receipt(queue: Queue) {
    assert!(matches!(
        queue.ack("no-such-receipt").await,
        Err(QueueError::InvalidReceipt)
    ));
}

pub async fn many_jobs(queue: Queue) {
    let mut sent = BTreeSet::new();
    for i in 0..12 {
        sent.insert(format!("job-{i}"));
        queue.enqueue(&format!("job-{i}")).await.unwrap();
    }
    let mut got = BTreeSet::new();
    while let Some(job) = queue.claim(LONG).await.unwrap() {
        assert!(
            got.insert(job.payload.clone()),
            "delivered twice: {}",
            job.payload
        );
        queue.ack(&job.receipt).await.unwrap();
        assert!(got.len() <= 12);
    }
    assert_eq!(got, sent);
}
