//! The random bench's users: the administrator, and one user scoped to each of `SCOPES`
//! machines.

use super::draw::{Catalogue, Who, SCOPES};
use crate::bench::reports::{sales_user, Api, Fleet};
use crate::error::BoxError;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use vendfleet_app::users::UserInput;

/// The bench's users: the administrator and one scoped to each of `SCOPES` machines (drawn
/// once with seed 1 and kept: the users are made once).
pub(super) async fn users(fleet: &Fleet, cat: &Catalogue) -> Result<Vec<Who>, BoxError> {
    let app = &fleet.local.app;
    let mut out = vec![Who {
        label: "admin".into(),
        api: Api {
            router: fleet.router.clone(),
            token: fleet.admin_api.token.clone(),
        },
        scope: None,
    }];
    let mut rng = StdRng::seed_from_u64(1);
    for n in SCOPES {
        let email = format!("random{n}@bench.local");
        let ids: Vec<String> = cat
            .machines
            .choose_multiple(&mut rng, n)
            .map(|m| m.id.clone())
            .collect();
        sales_user(
            app,
            &fleet.admin,
            UserInput {
                name: format!("Random {n}"),
                email: email.clone(),
                machine_ids: ids,
                ..Default::default()
            },
        )
        .await?;
        let user = app
            .users
            .directory()
            .user_by_email(&email)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("no scoped user")?;
        let (api, _) = fleet.sign_in(&email).await?;
        out.push(Who {
            label: format!("scope_{n}"),
            api,
            scope: Some(user.machine_ids),
        });
    }
    Ok(out)
}
