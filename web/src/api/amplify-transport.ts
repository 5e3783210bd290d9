// aws-amplify's REST client, in a chunk of its own: the client loads it with the first request, so
// a page that asks nothing at first (the sign-in page) does not wait for it. The core's `Amplify`,
// not the `aws-amplify` umbrella's: that one also sets up Cognito's token and credentials
// providers, which a REST API without signing never uses.
import { Amplify } from '@aws-amplify/core';

export { del, get, post, put } from '@aws-amplify/api-rest';

export const API_NAME = 'vendfleet';

export function configureAmplify(endpoint: string): void {
  Amplify.configure(
    { API: { REST: { [API_NAME]: { endpoint } } } },
    // Our server is not an AWS service: never sign, never retry behind the user's back (a 429 from
    // sign-in must reach the screen).
    { API: { REST: { defaultAuthMode: 'none', retryStrategy: { strategy: 'no-retry' } } } },
  );
}
