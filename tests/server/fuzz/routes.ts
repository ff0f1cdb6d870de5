import * as z from 'zod';
import type { FastifyInstance } from 'fastify';

/** A route to fuzz: its method and url pattern, and the zod schemas its requests are read with. */
export interface FuzzRoute {
  method: string;
  url: string;
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  /** The route reads form-urlencoded bodies (the OIDC endpoints, the login form). */
  prefersForm?: boolean;
  /** Where the route comes from: the Fastify catalogue, or the OIDC provider's discovery document. */
  source: 'fastify' | 'oidc';
}

/**
 * Parameters of the OIDC endpoints (RFC 6749, 7009, OIDC Core, RP-initiated logout, PAR). The
 * provider is mounted below Fastify, so it has no zod schema of its own: this one stands in for it.
 */
const OidcParamsSchema = z.object({
  client_id: z.string().optional(),
  response_type: z.string().optional(),
  redirect_uri: z.string().optional(),
  scope: z.string().optional(),
  state: z.string().optional(),
  nonce: z.string().optional(),
  prompt: z.string().optional(),
  response_mode: z.string().optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
  grant_type: z.string().optional(),
  code: z.string().optional(),
  code_verifier: z.string().optional(),
  refresh_token: z.string().optional(),
  token: z.string().optional(),
  token_type_hint: z.string().optional(),
  id_token_hint: z.string().optional(),
  post_logout_redirect_uri: z.string().optional(),
  resource: z.string().optional(),
  request: z.string().optional(),
  request_uri: z.string().optional(),
});

/**
 * Request schemas of Fastify routes that read their input inside the handler instead of declaring
 * it (the login form is parsed by the handler: oidc-provider needs the raw request first).
 */
const undeclared: Record<string, Pick<FuzzRoute, 'body' | 'prefersForm'>> = {
  'POST /interaction/:uid/login': {
    body: z.object({ email: z.string(), password: z.string() }),
    prefersForm: true,
  },
};

/**
 * Routes that end sessions or lock accounts go last, so the admin's token stays good for the rest.
 * (The runner also signs the admin in again when the token stops working.)
 */
const disruptive = [
  /\/logout$/,
  /changepassword$/,
  /\/interaction\//,
  /\/oidc\/token\/revocation$/,
  /\/oidc\/session\/end/,
];

/** Every route the server registered, in registration order. */
export function fastifyRoutes(app: FastifyInstance): FuzzRoute[] {
  const routes = app.routeCatalogue.flatMap((route) => {
    const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
    return (Array.isArray(route.method) ? route.method : [route.method]).map((method): FuzzRoute => ({
      method: String(method),
      url: route.url,
      body: schema.body,
      querystring: schema.querystring,
      params: schema.params,
      source: 'fastify',
      ...undeclared[`${String(method)} ${route.url}`],
    }));
  });
  return routes;
}

/** The OIDC provider's endpoints as its discovery document names them, on the demo tenant. */
export async function oidcRoutes(app: FastifyInstance, host = 'localhost'): Promise<FuzzRoute[]> {
  const discoveryPath = '/oidc/.well-known/openid-configuration';
  const response = await app.inject({ method: 'GET', url: discoveryPath, headers: { host } });
  if (response.statusCode !== 200) throw new Error(`OIDC discovery answered ${response.statusCode}`);
  const discovery = response.json<Record<string, unknown>>();
  const endpoints = Object.entries(discovery)
    .filter(([key, value]) => (key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string')
    .map(([, value]) => new URL(String(value)).pathname);
  const routes: FuzzRoute[] = [
    { method: 'GET', url: discoveryPath, querystring: OidcParamsSchema, source: 'oidc' },
  ];
  for (const path of new Set(endpoints)) {
    for (const method of ['GET', 'POST']) {
      routes.push({
        method,
        url: path,
        ...(method === 'GET'
          ? { querystring: OidcParamsSchema }
          : { body: OidcParamsSchema, prefersForm: true }),
        source: 'oidc',
      });
    }
  }
  return routes;
}

/** Every route: Fastify's and the provider's, the disruptive ones last. */
export async function discoverRoutes(app: FastifyInstance): Promise<FuzzRoute[]> {
  return lastIfDisruptive([...fastifyRoutes(app), ...(await oidcRoutes(app))]);
}

export function lastIfDisruptive(routes: FuzzRoute[]): FuzzRoute[] {
  const isDisruptive = (route: FuzzRoute) => disruptive.some((pattern) => pattern.test(route.url));
  return [...routes.filter((route) => !isDisruptive(route)), ...routes.filter(isDisruptive)];
}
