// NATS_URL names one server or a cluster's servers (docs/adr/0040); credentials travel in it
// (docs/adr/0017) and never reach a message.
import { describe, expect, it } from 'vitest';
import { NatsConfig, loadConfig, natsServer, redactUrl } from '../../src/index.js';

describe('natsServer', () => {
  it('splits one server into its address and credentials, as before', () => {
    expect(natsServer('nats://catalog:s3cret@127.0.0.1:4222')).toEqual({
      servers: 'nats://127.0.0.1:4222',
      user: 'catalog',
      pass: 's3cret',
    });
    expect(natsServer('nats://127.0.0.1:4222')).toEqual({ servers: 'nats://127.0.0.1:4222' });
  });

  it('lists every server of a cluster, the credentials given once', () => {
    expect(natsServer('nats://catalog:s3cret@nats:4222,nats://nats-2:4222, nats-3:4222')).toEqual({
      servers: ['nats://nats:4222', 'nats://nats-2:4222', 'nats://nats-3:4222'],
      user: 'catalog',
      pass: 's3cret',
    });
    expect(natsServer('nats://a:p@h1:4222,nats://a:p@h2:4223').servers).toEqual(['nats://h1:4222', 'nats://h2:4223']);
  });

  it('refuses two different users in one list, without showing a password', () => {
    expect(() => natsServer('nats://catalog:s3cret@h1:4222,nats://media:other@h2:4222')).toThrow(/different credentials/);
    try {
      natsServer('nats://catalog:s3cret@h1:4222,nats://media:other@h2:4222');
    } catch (err) {
      expect(String(err)).not.toMatch(/s3cret|other/);
    }
    expect(redactUrl('nats://catalog:s3cret@h1:4222,nats://h2:4222')).toBe('nats://catalog:***@h1:4222,nats://h2:4222');
  });
});

describe('NATS_STREAM_REPLICAS', () => {
  it('is unset unless set (the kit then leaves existing streams as they are), and only 1 to 5', () => {
    expect(loadConfig(NatsConfig, {}).NATS_STREAM_REPLICAS).toBeUndefined();
    expect(loadConfig(NatsConfig, { NATS_STREAM_REPLICAS: '3' }).NATS_STREAM_REPLICAS).toBe(3);
    expect(() => loadConfig(NatsConfig, { NATS_STREAM_REPLICAS: '0' })).toThrow(/NATS_STREAM_REPLICAS/);
    expect(() => loadConfig(NatsConfig, { NATS_STREAM_REPLICAS: 'three' })).toThrow(/NATS_STREAM_REPLICAS/);
  });
});
