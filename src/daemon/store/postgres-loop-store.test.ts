import assert from "node:assert/strict";
import { basename } from "node:path";
import { after, describe, test } from "node:test";
import { LeaseLostError } from "../../loops/store/loop-store.ts";
import { runLoopStoreConformance } from "../../testing/loops-store-conformance/index.ts";
import { admitted, newRun, T0 } from "../../testing/loops-store-conformance/store-fixture.ts";
import { startTestPostgres, type TestPostgres } from "../../testing/postgres-server.ts";
import { openPostgresLoopStore, type PostgresLoopStore } from "./postgres-loop-store.ts";
import { redactPostgresUrl } from "./postgres-url.ts";

const server: TestPostgres = await startTestPostgres();
if (!server.ok) process.stdout.write(`# skipping the PostgreSQL loop store: ${server.reason}\n`);
after(() => (server.ok ? server.stop() : undefined));

if (server.ok) {
  const url = server.url;
  // Each case's empty store is a schema of its own, named after the case's temporary directory.
  const open = (dir: string) =>
    openPostgresLoopStore({ url, schema: basename(dir).replaceAll("-", "_"), maxConnections: 4 });
  runLoopStoreConformance("postgres", { open, reopen: open });

  /**
   * Several stores on one schema: what several daemons on several machines see. The schema's name is
   * this process's own, so that a server given by HANKWEAVE_TEST_POSTGRES_URL can be reused.
   */
  const openMany = (name: string, count: number): Promise<PostgresLoopStore[]> => {
    const schema = `${name}_${process.pid}_${Date.now()}`;
    return Promise.all(
      Array.from({ length: count }, () => openPostgresLoopStore({ url, schema, maxConnections: 2 })),
    );
  };

  describe("postgres: several daemons on one store", () => {
    test("daemons starting together migrate once", async () => {
      const stores = await openMany("migrate_together", 4);
      try {
        const reports = stores.map((s) => [s.migration.from, s.migration.to]);
        assert.equal(reports.filter(([from]) => from === 0).length, 1, JSON.stringify(reports));
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    test("racing claims: exactly one daemon takes each lease; the others' writes are fenced", async () => {
      const stores = await openMany("racing_claims", 4);
      try {
        const [first] = stores as [PostgresLoopStore];
        const ids = Array.from({ length: 20 }, (_, i) => `r${i}`);
        for (const id of ids) await admitted(first, newRun(id));
        const claims = await Promise.all(
          stores.flatMap((store, d) => ids.map((id) => store.acquireLease(id, `daemon-${d}`, 1000, 10_000))),
        );
        for (const [i] of ids.entries()) {
          const won = stores.map((_, d) => claims[d * ids.length + i]).filter((t) => t !== null);
          assert.equal(won.length, 1, `run r${i}: ${won.length} daemons hold its lease`);
        }
        // An expired lease taken over by another daemon fences the first holder's writes.
        const token = (await first.acquireLease("r0", "late", 20_000, 10_000)) ?? 0;
        const older = token - 1;
        await assert.rejects(
          first.appendEvent("r0", older, "watch.disarmed", { why: "fenced" }, T0),
          LeaseLostError,
        );
        await first.appendEvent("r0", token, "watch.disarmed", { why: "current" }, T0);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    test("racing admissions keep one run per key and forbid across daemons", async () => {
      const stores = await openMany("racing_admissions", 4);
      try {
        const sameKey = await Promise.all(
          stores.map((store, d) =>
            store.admitRun(newRun(`k${d}`, "keyed", "one-key"), { concurrency: "allow", initial: "running" }),
          ),
        );
        assert.equal(sameKey.filter((r) => r.kind === "admitted").length, 1);
        assert.equal(sameKey.filter((r) => r.kind === "duplicate").length, 3);
        const forbid = await Promise.all(
          stores.map((store, d) =>
            store.admitRun(newRun(`f${d}`, "single"), { concurrency: "forbid", initial: "running" }),
          ),
        );
        assert.equal(forbid.filter((r) => r.kind === "admitted").length, 1);
        assert.equal(forbid.filter((r) => r.kind === "refused").length, 3);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });
  });

  test("a store's label never shows its password", async () => {
    assert.equal(
      redactPostgresUrl("postgres://ops:s3cret@db.example:5432/loops?password=x"),
      "postgres://ops:***@db.example:5432/loops?password=***",
    );
  });
} else {
  describe("postgres: loop store conformance", { skip: server.reason }, () => undefined);
}
