// Every operation every service publishes in its OpenAPI document, read through the gateway: the
// authorisation matrix and the mass-assignment tests walk this list, so a new route is covered
// (and must be classified in routes.ts) without editing the tests.
import { call, SERVICES } from './stack.js';

export interface Operation {
  service: string;
  method: string;
  /** The OpenAPI path, e.g. /api/catalog/products/{productId} */
  path: string;
  /** "METHOD path": the key of the route tables. */
  key: string;
  /** The document declares a security requirement (a bearer token). */
  secured: boolean;
  pathParams: string[];
  /** The JSON body schema, when the operation takes one. */
  jsonBody?: Record<string, any>;
  /** The body is multipart/form-data (an upload). */
  multipart: boolean;
  responses: string[];
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function openApiDocument(service: string): Promise<Record<string, any>> {
  const answer = await call('GET', `/api/${service}/openapi.json`);
  if (answer.status !== 200 || typeof answer.body !== 'object') {
    throw new Error(`/api/${service}/openapi.json answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  }
  return answer.body;
}

export async function operations(): Promise<Operation[]> {
  const found: Operation[] = [];
  for (const service of SERVICES) {
    const doc = await openApiDocument(service);
    const globalSecurity = (doc.security as unknown[] | undefined) ?? [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths ?? {})) {
      for (const [method, op] of Object.entries<Record<string, any>>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const security = (op.security as unknown[] | undefined) ?? globalSecurity;
        const content = op.requestBody?.content ?? {};
        found.push({
          service,
          method: method.toUpperCase(),
          path,
          key: `${method.toUpperCase()} ${path}`,
          secured: security.some((requirement) => Object.keys(requirement as object).length > 0),
          pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
          jsonBody: content['application/json']?.schema,
          multipart: 'multipart/form-data' in content,
          responses: Object.keys(op.responses ?? {}),
        });
      }
    }
  }
  return found;
}

/** The path with its parameters filled in. */
export function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter {${name}} of ${path}: add one to the suite's fixtures`);
    return encodeURIComponent(value);
  });
}
