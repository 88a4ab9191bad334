import type { Kysely, Transaction } from "kysely";
import {
  decodeLoopEvent,
  type LoopEventDataInput,
  type LoopEventInput,
  type LoopEventType,
} from "../../events/loop-events.ts";
import type {
  Effect,
  LoopCommand,
  LoopEvent,
  RegisteredLoop,
  StoredCommand,
  StoredMessage,
  WatchCursor,
} from "../../loops/store/store-records.ts";
import { commandFromRow, effectFromRow, messageFromRow } from "./store-rows.ts";
import type { StoreDatabase } from "./store-tables.ts";

type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;
type TokenCheck = (trx: Transaction<StoreDatabase>, runId: string, token: number) => Promise<unknown>;

/**
 * The append-only side of the store: the loop-run event log, the inbox, operator commands, the effect
 * outbox, registered definitions and watch cursors. Driver writes check the fencing token; verbs
 * (notes, commands) only append and need none.
 */
export class LogQueries {
  constructor(
    protected readonly db: Kysely<StoreDatabase>,
    private readonly checkToken: TokenCheck,
  ) {}

  protected async insertEvent(trx: Db, runId: string, event: LoopEventInput, at: string): Promise<number> {
    const row = await trx
      .insertInto("loop_events")
      .values({ run_id: runId, type: event.type, data: JSON.stringify(event.data), at })
      .returning("seq")
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  protected async insertEffect(
    trx: Db,
    runId: string,
    effect: { readonly deliveryId: string; readonly payload: Readonly<Record<string, unknown>> },
    at: string,
  ): Promise<void> {
    await trx
      .insertInto("loop_effects")
      .values({
        delivery_id: effect.deliveryId,
        run_id: runId,
        kind: "escalation",
        payload: JSON.stringify(effect.payload),
        created_at: at,
        delivered_at: null,
        attempts: 0,
      })
      .onConflict((oc) => oc.column("delivery_id").doNothing())
      .execute();
  }

  async appendEvent<T extends LoopEventType>(
    runId: string,
    token: number,
    type: T,
    data: LoopEventDataInput<T>,
    at: string,
  ): Promise<number> {
    // The pair was checked against each other by the caller's types; the union cannot say so itself.
    const event = { type, data } as LoopEventInput;
    return this.db.transaction().execute(async (trx) => {
      await this.checkToken(trx, runId, token);
      return this.insertEvent(trx, runId, event, at);
    });
  }

  async events(afterSeq: number, runId?: string, limit = 1000): Promise<LoopEvent[]> {
    let query = this.db.selectFrom("loop_events").selectAll().where("seq", ">", afterSeq);
    if (runId !== undefined) query = query.where("run_id", "=", runId);
    const rows = await query.orderBy("seq").limit(limit).execute();
    return rows.map((row) =>
      decodeLoopEvent({
        seq: Number(row.seq),
        runId: row.run_id,
        type: row.type,
        data: JSON.parse(row.data),
        at: row.at,
      }),
    );
  }

  async addMessage(message: Omit<StoredMessage, "id" | "readByGeneration">): Promise<number> {
    const row = await this.db
      .insertInto("loop_messages")
      .values({
        run_id: message.runId,
        kind: message.kind,
        author: message.author,
        text: message.text,
        created_at: message.createdAt,
        read_by_generation: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async messages(runId: string): Promise<StoredMessage[]> {
    const rows = await this.db
      .selectFrom("loop_messages")
      .selectAll()
      .where("run_id", "=", runId)
      .orderBy("id")
      .execute();
    return rows.map(messageFromRow);
  }

  async markRead(runId: string, token: number, ids: readonly number[], generation: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await this.checkToken(trx, runId, token);
      await trx
        .updateTable("loop_messages")
        .set({ read_by_generation: generation })
        .where("run_id", "=", runId)
        .where("id", "in", [...ids])
        .where("read_by_generation", "is", null)
        .execute();
    });
  }

  async addCommand(runId: string, command: LoopCommand, at: string): Promise<number> {
    const { type, ...payload } = command;
    const row = await this.db
      .insertInto("loop_commands")
      .values({
        run_id: runId,
        type,
        payload: JSON.stringify(payload),
        created_at: at,
        settled_at: null,
        outcome: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async pendingCommands(runId: string): Promise<StoredCommand[]> {
    const rows = await this.db
      .selectFrom("loop_commands")
      .selectAll()
      .where("run_id", "=", runId)
      .where("settled_at", "is", null)
      .orderBy("id")
      .execute();
    return rows.map(commandFromRow);
  }

  async settleCommand(runId: string, token: number, id: number, outcome: string, at: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.checkToken(trx, runId, token);
      await trx
        .updateTable("loop_commands")
        .set({ settled_at: at, outcome })
        .where("id", "=", id)
        .where("run_id", "=", runId)
        .execute();
      await this.insertEvent(trx, runId, { type: "run.command", data: { id, outcome } }, at);
    });
  }

  async pendingEffects(limit = 100): Promise<Effect[]> {
    const rows = await this.db
      .selectFrom("loop_effects")
      .selectAll()
      .where("delivered_at", "is", null)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(effectFromRow);
  }

  async markEffect(id: number, delivered: boolean, at: string): Promise<void> {
    const row = await this.db
      .selectFrom("loop_effects")
      .select("attempts")
      .where("id", "=", id)
      .executeTakeFirst();
    if (row === undefined) return;
    await this.db
      .updateTable("loop_effects")
      .set({ attempts: Number(row.attempts) + 1, ...(delivered && { delivered_at: at }) })
      .where("id", "=", id)
      .execute();
  }

  async registerLoop(loop: RegisteredLoop): Promise<void> {
    const row = {
      loop_id: loop.loopId,
      file: loop.file,
      name: loop.name,
      kind: loop.kind,
      updated_at: loop.updatedAt,
    };
    await this.db
      .insertInto("loop_definitions")
      .values(row)
      .onConflict((oc) => oc.column("loop_id").doUpdateSet(row))
      .execute();
  }

  async registeredLoops(): Promise<RegisteredLoop[]> {
    const rows = await this.db.selectFrom("loop_definitions").selectAll().orderBy("loop_id").execute();
    return rows.map((r) => ({
      loopId: r.loop_id,
      file: r.file,
      name: r.name,
      kind: r.kind as RegisteredLoop["kind"],
      updatedAt: r.updated_at,
    }));
  }

  async getCursor(loopId: string): Promise<WatchCursor | undefined> {
    const row = await this.db
      .selectFrom("loop_cursors")
      .selectAll()
      .where("loop_id", "=", loopId)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : { loopId: row.loop_id, cursor: row.cursor, lastSuccessAt: row.last_success_at };
  }

  async putCursor(cursor: WatchCursor): Promise<void> {
    await this.upsertCursor(this.db, cursor);
  }

  protected async upsertCursor(db: Kysely<StoreDatabase>, cursor: WatchCursor): Promise<void> {
    const row = { loop_id: cursor.loopId, cursor: cursor.cursor, last_success_at: cursor.lastSuccessAt };
    await db
      .insertInto("loop_cursors")
      .values(row)
      .onConflict((oc) => oc.column("loop_id").doUpdateSet(row))
      .execute();
  }
}
