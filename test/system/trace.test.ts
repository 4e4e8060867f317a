// One trace through the whole system (issue 14, docs/observability.md): a farmer posts a product
// through the gateway with a W3C traceparent of the test's own, and Jaeger's query API then holds
// one trace with the gateway's span, the catalog's request and handler spans, the publish of
// ProductCreated and both consumers' spans (catalog's read model and media's image attach), each
// consumer span a child of the publish span.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, imageForm, photo } from '../support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { PUBLIC_URL } from '../support/env.js';
import { jaegerApi, jaegerTrace, serviceOf, type JaegerSpan, type JaegerTrace } from '../support/jaeger.js';

const CREATED = 'tuber.catalog.product.created.v1';
let farmer: TestAccount;

beforeAll(async () => {
  const answer = await fetch(`${jaegerApi}/services`).catch(() => null);
  expect(answer?.status, `Jaeger's query API at ${jaegerApi} (make up starts it; infra/local/jaeger.sh)`).toBe(200);
  farmer = await signedInAccount({ role: 'farmer', businessName: 'Trace Farms', location: 'Ibadan', tuber: ['yam'] });
  expect((await api('POST', '/api/profile/me', { token: farmer.accessToken })).status).toBe(201);
});
afterAll(async () => farmer && deleteAccount(farmer.id));

describe('one trace from the gateway to the consumers', () => {
  it('a product post is one trace: gateway, catalog request and handler, publish, catalog and media consumers', async () => {
    const images = [];
    for (const name of ['trace 1.jpg', 'trace 2.jpg']) {
      const image = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(await photo(), name) });
      expect(image.status).toBe(201);
      images.push(image.body.image_id as string);
    }

    const traceId = randomBytes(16).toString('hex');
    const clientSpan = randomBytes(8).toString('hex');
    const body = {
      product_name: 'Traced yam',
      description: 'White yam posted by the trace test to follow one request through the system',
      price: 1200,
      kg: 5,
      tuber_type: 'yam',
      image_ids: images,
      cultural: 'Served at the New Yam festival',
    };
    // The catalog learns of the farmer by event: retry while it answers 409 (each try its own trace).
    const posted = await eventually(
      async () => {
        const response = await fetch(`${PUBLIC_URL}/api/catalog/products`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${farmer.accessToken}`,
            'content-type': 'application/json',
            traceparent: `00-${traceId}-${clientSpan}-01`,
          },
          body: JSON.stringify(body),
        });
        return { status: response.status, text: await response.text() };
      },
      (answer) => answer.status !== 409,
    );
    expect(posted.status, posted.text).toBe(201);

    const wanted = (t: JaegerTrace | null) => {
      if (!t) return false;
      const names = t.spans.map((s) => `${serviceOf(t, s)} ${s.operationName}`);
      return [`catalog ${CREATED} publish`, `catalog ${CREATED} process`, `media ${CREATED} process`].every((n) => names.includes(n));
    };
    const found = await eventually(() => jaegerTrace(traceId), wanted, 30_000);
    expect(found, `trace ${traceId} in Jaeger`).not.toBeNull();
    const t = found!;
    const service = (s: JaegerSpan) => serviceOf(t, s);
    const parentOf = (s: JaegerSpan) => s.references.find((r) => r.refType === 'CHILD_OF')?.spanID;
    const describeAll = t.spans.map((s) => `${service(s)}: ${s.operationName}`).join('\n');

    const gateway = t.spans.find((s) => service(s) === 'gateway');
    expect(gateway, `the gateway's span among:\n${describeAll}`).toBeDefined();
    expect(parentOf(gateway!)).toBe(clientSpan);

    const server = t.spans.find((s) => service(s) === 'catalog' && /^POST\b/.test(s.operationName) && parentOf(s) === gateway!.spanID);
    expect(server, `the catalog's request span under the gateway's among:\n${describeAll}`).toBeDefined();
    const handler = t.spans.find((s) => service(s) === 'catalog' && s.operationName.startsWith('handler'));
    expect(handler, `the catalog's handler span among:\n${describeAll}`).toBeDefined();

    const publish = t.spans.filter((s) => service(s) === 'catalog' && s.operationName === `${CREATED} publish`);
    expect(publish).toHaveLength(1);
    for (const consumer of ['catalog', 'media']) {
      const process = t.spans.find((s) => service(s) === consumer && s.operationName === `${CREATED} process`);
      expect(process, `${consumer}'s consumer span`).toBeDefined();
      expect(parentOf(process!), `${consumer}'s consumer span is the publish span's child`).toBe(publish[0]!.spanID);
    }
    // The handler's database work is in the trace too.
    expect(
      t.spans.some((s) => service(s) === 'catalog' && s.tags.some((tag) => tag.key === 'db.system.name' && tag.value === 'mongodb')),
    ).toBe(true);
  });
});
