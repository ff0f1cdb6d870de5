/**
 * Prints a valid federated sign-in link for the demo (README "Federated sign-in"):
 *   npm run federated-link -- [email] [origin]
 * e.g. npm run federated-link -- manager@demo.test http://localhost:8080
 * Another tenant's partner passes its key: FEDERATION_KEY_ID=... FEDERATION_SECRET=... npm run federated-link -- ...
 * The link works once, within 5 minutes.
 */
import { demoFederationKey, signFederatedLink } from '../server/identity/federated-link.ts';

const [email = 'admin@demo.test', origin = 'http://localhost:8080'] = process.argv.slice(2);
const kid = process.env.FEDERATION_KEY_ID ?? demoFederationKey.keyId;
const secret = process.env.FEDERATION_SECRET ?? demoFederationKey.secret;
console.log(signFederatedLink(origin.replace(/\/$/, ''), { email, kid, secret }));
