//! Conformance cases of a timing service that keeps schedules outside the process
//! (`Schedules::external()`: EventBridge Scheduler).

use crate::ports::{ScheduleSpec, Schedules};
use std::sync::Arc;

type Subject = Arc<dyn Schedules>;

fn spec(name: &str, expression: &str, enabled: bool) -> ScheduleSpec {
    ScheduleSpec {
        name: name.to_string(),
        expression: expression.to_string(),
        time_zone: "Europe/Paris".into(),
        enabled,
        payload: format!("{{\"task_id\":\"{name}\"}}"),
    }
}

pub async fn put_get_replace_delete(s: Subject) {
    assert!(s.external());
    let name = format!("t{}", ulid::Ulid::new());
    assert_eq!(s.get(&name).await.unwrap(), None);
    let first = spec(&name, "cron(30 2 * * ? *)", true);
    s.put(&first).await.unwrap();
    assert_eq!(s.get(&name).await.unwrap(), Some(first));
    // A second put replaces: another time, another zone, paused.
    let mut second = spec(&name, "cron(0 7 ? * MON-FRI *)", false);
    second.time_zone = "America/Los_Angeles".into();
    s.put(&second).await.unwrap();
    assert_eq!(s.get(&name).await.unwrap(), Some(second));
    s.delete(&name).await.unwrap();
    assert_eq!(s.get(&name).await.unwrap(), None);
    // Deleting what is not there succeeds.
    s.delete(&name).await.unwrap();
}

pub async fn schedules_are_independent(s: Subject) {
    let (a, b) = (
        format!("a{}", ulid::Ulid::new()),
        format!("b{}", ulid::Ulid::new()),
    );
    s.put(&spec(&a, "cron(0 6 1 * ? *)", true)).await.unwrap();
    s.put(&spec(&b, "cron(15 18 ? * SUN *)", true))
        .await
        .unwrap();
    s.delete(&a).await.unwrap();
    assert_eq!(s.get(&a).await.unwrap(), None);
    assert_eq!(
        s.get(&b).await.unwrap().unwrap().expression,
        "cron(15 18 ? * SUN *)"
    );
    s.delete(&b).await.unwrap();
}
