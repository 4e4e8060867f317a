// The Helm chart checked without a cluster (docs/adr/0036): `infra/local/helm.sh check` lints the
// chart, renders it for the defaults and the production value set, validates every manifest against
// the Kubernetes schemas kubernetes-validate ships, and runs the policy check. A deliberately bad
// manifest shows that the policy check can fail.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const script = 'infra/local/helm.sh';
// Each value set renders at least this many manifests. The defaults make 58: 13 Deployments and
// their Services (7 services, 4 front ends, the gateway, the collector), 13 PodDisruptionBudgets,
// 12 NetworkPolicies, 5 ConfigMaps (the dashboard's among them), the ServiceAccount and the Ingress;
// the production set adds 7 HorizontalPodAutoscalers (65). The floors leave room for the dashboard
// folder to change, not for a workload to go missing.
const MIN_MANIFESTS = { defaults: 56, production: 63 };

interface Run {
  code: number;
  output: string;
}

function run(args: string[], timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', [script, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

describe('Helm chart infra/helm/tuber', () => {
  let check: Run;
  beforeAll(async () => {
    // Helm is built once from the Go module proxy (`make up` installs it); a first build here may take minutes.
    check = await run(['check'], 1_500_000);
  }, 1_600_000);

  it('passes helm lint for both value sets', () => {
    expect(check.output).toMatch(/^lint: defaults ok$/m);
    expect(check.output).toMatch(/^lint: production ok$/m);
  });

  it('renders both value sets, each with more manifests than the floor', () => {
    for (const [set, floor] of Object.entries(MIN_MANIFESTS)) {
      const match = new RegExp(`^rendered: ${set} (\\d+) manifests$`, 'm').exec(check.output);
      expect(match, `no "rendered: ${set}" line in:\n${check.output}`).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(floor);
    }
  });

  it('validates every rendered manifest against the Kubernetes schemas with 0 errors', () => {
    const match = /^validation: (\d+) manifests, 2 Kubernetes versions \(([^)]*)\), (\d+) errors$/m.exec(check.output);
    expect(match, check.output).not.toBeNull();
    const rendered = [...check.output.matchAll(/^rendered: \w+ (\d+) manifests$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(Number(match![1])).toBe(rendered);
    expect(match![2]).toContain('strict');
    expect(Number(match![3]), check.output).toBe(0);
  });

  it('finds no policy violation in what the chart renders', () => {
    const match = /^policy: (\d+) containers, (\d+) violations$/m.exec(check.output);
    expect(match, check.output).not.toBeNull();
    // 12 Deployments and the gateway's span relay, in each of the two value sets.
    expect(Number(match![1])).toBeGreaterThanOrEqual(2 * 13);
    expect(Number(match![2]), check.output).toBe(0);
    expect(check.output).toMatch(/^helm check: passed$/m);
    expect(check.code).toBe(0);
  });

  describe('the checks on deliberately bad manifests', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'tuber-helm-policy-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('fails, naming root, a writable root filesystem, latest and untagged images, missing limits and probes, an inlined secret', async () => {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(
        bad,
        `apiVersion: apps/v1
kind: Deployment
metadata: { name: bad }
spec:
  selector: { matchLabels: { app: bad } }
  template:
    metadata: { labels: { app: bad } }
    spec:
      securityContext: { runAsUser: 0 }
      containers:
        - name: latest
          image: registry.example.test/tuber/auth:latest
          env:
            - { name: MONGO_URL, value: "mongodb://profile:hunter22@mongo:27017/profile" }
            - { name: KEYCLOAK_AUTH_CLIENT_SECRET, value: s3cret }
        - name: untagged
          image: nginx
          securityContext: { runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }
          resources: { requests: { cpu: 10m, memory: 16Mi } }
---
apiVersion: v1
kind: Secret
metadata: { name: inlined }
stringData: { password: hunter22 }
`,
      );
      const result = await run(['policy', bad], 600_000);
      expect(result.code, result.output).toBe(1);
      const violations = result.output.split('\n').filter((line) => line.startsWith('VIOLATION'));
      const about = (container: string, text: string) =>
        violations.some((line) => line.includes(`container ${container} `) && line.includes(text));
      expect(about('latest', 'runs as root (runAsUser 0)')).toBe(true);
      expect(about('latest', 'readOnlyRootFilesystem is not true')).toBe(true);
      expect(about('latest', 'capabilities.drop lacks ALL')).toBe(true);
      expect(about('latest', 'uses the tag `latest`')).toBe(true);
      expect(about('latest', 'has no limits.memory')).toBe(true);
      expect(about('latest', 'has no livenessProbe')).toBe(true);
      expect(about('latest', 'MONGO_URL carries a password')).toBe(true);
      expect(about('latest', 'KEYCLOAK_AUTH_CLIENT_SECRET is written in the manifest')).toBe(true);
      expect(about('untagged', 'has no tag or digest')).toBe(true);
      expect(about('untagged', 'has no limits.cpu')).toBe(true);
      expect(about('untagged', 'has no readinessProbe')).toBe(true);
      expect(violations.some((line) => line.includes('Secret/inlined'))).toBe(true);
      // The untagged container has a read-only root and drops every capability: those rules do not
      // fire for it; it still inherits the pod's runAsUser 0, which its runAsNonRoot cannot undo.
      expect(about('untagged', 'readOnlyRootFilesystem')).toBe(false);
      expect(about('untagged', 'capabilities')).toBe(false);
      expect(about('untagged', 'runs as root (runAsUser 0)')).toBe(true);
      expect(result.output).toMatch(/^policy: 2 containers, \d+ violations$/m);
    });

    it('fails schema validation on a wrong type and on an API that no longer exists', async () => {
      const bad = join(dir, 'invalid.yaml');
      writeFileSync(
        bad,
        `apiVersion: apps/v1
kind: Deployment
metadata: { name: invalid }
spec:
  replicas: three
  selector: { matchLabels: { app: invalid } }
  template:
    metadata: { labels: { app: invalid } }
    spec: { containers: [{ name: app, image: "registry.example.test/app:1.0" }] }
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: { name: removed }
spec: { maxUnavailable: 1 }
`,
      );
      const result = await run(['validate', bad], 600_000);
      expect(result.code, result.output).toBe(1);
      expect(result.output).toMatch(/Deployment\/invalid \[1\.37\.0\] spec\.replicas: 'three' is not of type/);
      expect(result.output).toMatch(/PodDisruptionBudget\/removed \[1\.37\.0\] no schema for policy\/v1beta1/);
      expect(result.output).toMatch(/^validation: 2 manifests, 2 Kubernetes versions \(1\.27\.0, 1\.37\.0, strict\), 4 errors$/m);
    });
  });
});
