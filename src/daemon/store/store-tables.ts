import type { Generated } from "kysely";

/**
 * The store's tables as Kysely sees them. Dialect-neutral on purpose: text, integers and reals only,
 * JSON kept as text, times as ISO text and lease times as epoch milliseconds, so that the same queries
 * run on PostgreSQL.
 */
export interface StoreDatabase {
  store_meta: { key: string; value: string };
  loop_runs: {
    id: string;
    loop_id: string;
    run_key: string;
    trigger_kind: string;
    state: string;
    cause: string | null;
    park_reason: string | null;
    paused_from: string | null;
    contract: string;
    meters: string;
    amendments: string;
    dir: string;
    created_at: string;
    state_since: string;
    ended_at: string | null;
    lease_owner: string | null;
    lease_expires_at: number | null;
    fencing_token: number;
  };
  loop_generations: {
    run_id: string;
    number: number;
    gen_key: string;
    state: string;
    facts: string;
    layers: string;
    body_run_id: string | null;
    workspace_tree: string | null;
    tokens: number | null;
    cost_usd: number | null;
    read_messages: string;
    started_at: string;
    ended_at: string | null;
  };
  loop_messages: {
    id: Generated<number>;
    run_id: string;
    kind: string;
    author: string;
    text: string;
    created_at: string;
    read_by_generation: number | null;
  };
  loop_commands: {
    id: Generated<number>;
    run_id: string;
    type: string;
    payload: string;
    created_at: string;
    settled_at: string | null;
    outcome: string | null;
  };
  loop_events: {
    seq: Generated<number>;
    run_id: string;
    type: string;
    data: string;
    at: string;
  };
  loop_effects: {
    id: Generated<number>;
    delivery_id: string;
    run_id: string;
    kind: string;
    payload: string;
    created_at: string;
    delivered_at: string | null;
    attempts: number;
  };
  loop_definitions: { loop_id: string; file: string; name: string; kind: string; updated_at: string };
  loop_cursors: { loop_id: string; cursor: string | null; last_success_at: string };
}
