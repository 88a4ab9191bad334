import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodonBudget, ContainerBudget } from "../../hank/schema/index.ts";
import type { BudgetChild } from "./allocate-child.ts";
import { type ResolveCodonBudgetInput, resolveCodonBudget } from "./resolve-codon-budget.ts";

const done = (id: string, spentDollars: number, capDollars?: number): BudgetChild => ({
  id,
  kind: "codon",
  status: "finished",
  spentDollars,
  capDollars,
});
const current = (id: string, spentDollars = 0): BudgetChild => ({
  id,
  kind: "codon",
  status: "current",
  spentDollars,
});
const pending = (id: string, capDollars?: number): BudgetChild => ({
  id,
  kind: "codon",
  status: "pending",
  spentDollars: 0,
  capDollars,
});
const loopChild = (id: string, spentDollars: number): BudgetChild => ({
  id,
  kind: "loop",
  status: "current",
  spentDollars,
});

function hankLevel(
  budget: ContainerBudget | undefined,
  children: readonly BudgetChild[],
  codon?: CodonBudget,
): ResolveCodonBudgetInput {
  return { codon, hank: { budget, children, elapsedSeconds: 0 } };
}

const cost = (input: ResolveCodonBudgetInput) => resolveCodonBudget(input).cost;

describe("resolveCodonBudget: shared (reference 1.8 worked examples)", () => {
  const budget: ContainerBudget = { maxDollars: 5 };

  it("$5, codons a,b,c: a gets $5", () => {
    assert.deepEqual(cost(hankLevel(budget, [current("a"), pending("b"), pending("c")])), {
      limit: 5,
      scope: "hank",
      source: "shared pool",
    });
  });
  it("a spends 0.80 -> b gets 4.20", () => {
    assert.deepEqual(cost(hankLevel(budget, [done("a", 0.8), current("b"), pending("c")])), {
      limit: 4.2,
      scope: "hank",
      source: "shared pool",
    });
  });
  it("b spends 3.50 -> c gets 0.70", () => {
    assert.deepEqual(cost(hankLevel(budget, [done("a", 0.8), done("b", 3.5), current("c")])), {
      limit: 0.7,
      scope: "hank",
      source: "shared pool",
    });
  });
  it("$10, a spends 6, b spends 4 -> c gets $0", () => {
    assert.deepEqual(cost(hankLevel({ maxDollars: 10 }, [done("a", 6), done("b", 4), current("c")])), {
      limit: 0,
      scope: "hank",
      source: "shared pool",
    });
  });
  it("explicit maxDollars 20 with $2 global remaining -> 2", () => {
    const input = hankLevel({ maxDollars: 10 }, [done("a", 8), current("b")], { maxDollars: 20 });
    assert.deepEqual(cost(input), { limit: 2, scope: "hank", source: "shared pool" });
  });
  it("a codon cap below the remaining pool binds", () => {
    const input = hankLevel({ maxDollars: 10 }, [done("a", 1), current("b")], { maxDollars: 3 });
    assert.deepEqual(cost(input), { limit: 3, scope: "codon", source: "codon cap" });
  });
});

describe("resolveCodonBudget: proportional (reference 1.8 worked examples)", () => {
  it("$10, shares a .6 b .4: a = 6", () => {
    const budget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional",
      shares: { a: 0.6, b: 0.4 },
    };
    assert.deepEqual(cost(hankLevel(budget, [current("a"), pending("b")])), {
      limit: 6,
      scope: "hank",
      source: "proportional share (60% of $10.00)",
    });
  });
  it("$10, shares a .6 b .4: a spends 3 -> b = min(4, 7) = 4", () => {
    const budget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional",
      shares: { a: 0.6, b: 0.4 },
    };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 3), current("b")])), {
      limit: 4,
      scope: "hank",
      source: "proportional share (40% of $10.00)",
    });
  });
  it("$10, shares {a: .5}, codons a,b,c: a = 5", () => {
    const budget: ContainerBudget = { maxDollars: 10, allocation: "proportional", shares: { a: 0.5 } };
    assert.equal(cost(hankLevel(budget, [current("a"), pending("b"), pending("c")]))?.limit, 5);
  });
  it("$10, shares {a: .5}, codons a,b,c: b (unshared) = (0.5 x 10) / 2 = 2.5", () => {
    const budget: ContainerBudget = { maxDollars: 10, allocation: "proportional", shares: { a: 0.5 } };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 4), current("b"), pending("c")])), {
      limit: 2.5,
      scope: "hank",
      source: "uniform share",
    });
  });
  it("$10, shares a .5 b .5, a overspends 8 -> b = min(5, 2) = 2", () => {
    const budget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional",
      shares: { a: 0.5, b: 0.5 },
    };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 8), current("b")])), {
      limit: 2,
      scope: "hank",
      source: "remaining",
    });
  });
  it("$10, shares a .5 b .5, a spends only 1 -> b = 5", () => {
    const budget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional",
      shares: { a: 0.5, b: 0.5 },
    };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 1), current("b")])), {
      limit: 5,
      scope: "hank",
      source: "proportional share (50% of $10.00)",
    });
  });

  describe("$10, shares a .3 b .5, a has maxDollars 2", () => {
    const budget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional",
      shares: { a: 0.3, b: 0.5 },
    };
    it("a = 2 (its cap under its share)", () => {
      const input = hankLevel(budget, [current("a"), pending("b"), pending("c")], { maxDollars: 2 });
      assert.deepEqual(cost(input), { limit: 2, scope: "codon", source: "codon cap (share was $3.00)" });
    });
    it("b = 5", () => {
      assert.deepEqual(cost(hankLevel(budget, [done("a", 2, 2), current("b"), pending("c")])), {
        limit: 5,
        scope: "hank",
        source: "proportional share (50% of $10.00)",
      });
    });
    it("c (unshared) = 2", () => {
      assert.deepEqual(cost(hankLevel(budget, [done("a", 2, 2), done("b", 5), current("c")])), {
        limit: 2,
        scope: "hank",
        source: "uniform share",
      });
    });
  });

  it("an unshared codon with its own cap takes no part in the uniform split", () => {
    const budget: ContainerBudget = { maxDollars: 10, allocation: "proportional", shares: { a: 0.4 } };
    const children = [done("a", 4), current("b"), pending("c", 1), pending("d")];
    assert.deepEqual(cost(hankLevel(budget, children)), { limit: 3, scope: "hank", source: "uniform share" });
    const capped = hankLevel(budget, [done("a", 4), done("b", 3), current("c"), pending("d")], {
      maxDollars: 1,
    });
    assert.deepEqual(cost(capped), { limit: 1, scope: "codon", source: "codon cap" });
  });
  it("an id that names an Object property has no share", () => {
    const budget: ContainerBudget = { maxDollars: 10, allocation: "proportional", shares: { a: 0.5 } };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 5), current("constructor"), pending("toString")])), {
      limit: 2.5,
      scope: "hank",
      source: "uniform share",
    });
  });
});

describe("resolveCodonBudget: proportional-strict (reference 1.8 worked examples)", () => {
  it("$10, shares a .5 b .3, a spends 1 -> consumed 5 -> b = min(3, 5, 9) = 3", () => {
    const budget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional-strict",
      shares: { a: 0.5, b: 0.3 },
    };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 1), current("b")])), {
      limit: 3,
      scope: "hank",
      source: "strict share (30% of $10.00)",
    });
  });
  it("$10, shares a .3 b .5, a spends 4 -> b = min(5, 6, 6) = 5", () => {
    const budget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional-strict",
      shares: { a: 0.3, b: 0.5 },
    };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 4), current("b")])), {
      limit: 5,
      scope: "hank",
      source: "strict share (50% of $10.00)",
    });
  });
  it("what finished codons left unspent evaporates: strict remaining binds", () => {
    const budget: ContainerBudget = { maxDollars: 10, allocation: "proportional-strict", shares: { a: 0.5 } };
    // a consumed its whole $5 share though it spent 1; c (unshared) spent 2: $7 are really left, $3 strictly.
    assert.deepEqual(cost(hankLevel(budget, [done("a", 1), done("c", 2), current("b")])), {
      limit: 3,
      scope: "hank",
      source: "strict remaining",
    });
  });
  it("an unshared codon gets the uniform share, marked strict", () => {
    const budget: ContainerBudget = { maxDollars: 10, allocation: "proportional-strict", shares: { a: 0.5 } };
    assert.deepEqual(cost(hankLevel(budget, [done("a", 1), current("b"), pending("c")])), {
      limit: 2.5,
      scope: "hank",
      source: "uniform share (strict)",
    });
  });
});

describe("resolveCodonBudget: loops", () => {
  function inLoop(
    hankMax: number,
    loopSpent: number,
    loopChildren: readonly BudgetChild[],
    codon: CodonBudget,
  ): ResolveCodonBudgetInput {
    return {
      codon,
      hank: { budget: { maxDollars: hankMax }, children: [loopChild("L", loopSpent)], elapsedSeconds: 0 },
      loop: { id: "L", budget: undefined, children: loopChildren, elapsedSeconds: 0 },
    };
  }

  it("codon cap $5 with $20 global: iteration 0 limit 5", () => {
    assert.deepEqual(cost(inLoop(20, 0, [current("x")], { maxDollars: 5 })), {
      limit: 5,
      scope: "codon",
      source: "codon cap",
    });
  });
  it("codon cap $5 with $20 global: iteration 0 spent 3 -> iteration 1 limit 5 (not 2)", () => {
    assert.deepEqual(cost(inLoop(20, 3, [done("x", 3, 5), current("x")], { maxDollars: 5 })), {
      limit: 5,
      scope: "codon",
      source: "codon cap",
    });
  });
  it("codon cap $5 with $7 global: iteration 0 spends 4 -> iteration 1 limit 3", () => {
    assert.deepEqual(cost(inLoop(7, 4, [done("x", 4, 5), current("x")], { maxDollars: 5 })), {
      limit: 3,
      scope: "hank",
      source: "shared pool",
    });
  });

  it("a loop's hank share bounds its codons, net of what the loop already spent", () => {
    const input: ResolveCodonBudgetInput = {
      codon: undefined,
      hank: {
        budget: { maxDollars: 10, allocation: "proportional", shares: { L: 0.3, a: 0.7 } },
        children: [done("a", 1), loopChild("L", 2)],
        elapsedSeconds: 0,
      },
      loop: { id: "L", budget: undefined, children: [done("x", 2), current("y")], elapsedSeconds: 0 },
    };
    assert.deepEqual(cost(input), { limit: 1, scope: "hank", source: "proportional share (30% of $10.00)" });
  });

  it("hank shares keyed by a loop's codon id do not apply to that codon", () => {
    const input: ResolveCodonBudgetInput = {
      codon: undefined,
      hank: {
        budget: { maxDollars: 10, allocation: "proportional", shares: { x: 0.2 } },
        children: [loopChild("L", 0)],
        elapsedSeconds: 0,
      },
      loop: { id: "L", budget: undefined, children: [current("x")], elapsedSeconds: 0 },
    };
    assert.deepEqual(cost(input), { limit: 8, scope: "hank", source: "uniform share" });
  });

  describe("a loop with its own proportional budget splits the pool the hank grants it", () => {
    const loopBudget: ContainerBudget = {
      maxDollars: 4,
      allocation: "proportional",
      shares: { x: 0.5, y: 0.5 },
    };
    const hankBudget: ContainerBudget = {
      maxDollars: 10,
      allocation: "proportional",
      shares: { L: 0.5, a: 0.5 },
    };
    it("x#0 gets half of the loop's $4", () => {
      const input: ResolveCodonBudgetInput = {
        codon: undefined,
        hank: { budget: hankBudget, children: [loopChild("L", 0), pending("a")], elapsedSeconds: 0 },
        loop: { id: "L", budget: loopBudget, children: [current("x"), pending("y")], elapsedSeconds: 0 },
      };
      assert.deepEqual(cost(input), {
        limit: 2,
        scope: "loop",
        source: "loop L proportional share (50% of $4.00)",
      });
    });
    it("y#0 after x#0 spent 3 gets what is left of the loop's pool", () => {
      const input: ResolveCodonBudgetInput = {
        codon: undefined,
        hank: { budget: hankBudget, children: [loopChild("L", 3), pending("a")], elapsedSeconds: 0 },
        loop: { id: "L", budget: loopBudget, children: [done("x", 3), current("y")], elapsedSeconds: 0 },
      };
      assert.deepEqual(cost(input), { limit: 1, scope: "loop", source: "loop L remaining" });
    });
    it("the hank's grant caps a loop budget larger than the loop's share", () => {
      const input: ResolveCodonBudgetInput = {
        codon: undefined,
        hank: { budget: hankBudget, children: [loopChild("L", 0), pending("a")], elapsedSeconds: 0 },
        loop: {
          id: "L",
          budget: { ...loopBudget, maxDollars: 8 },
          children: [current("x"), pending("y")],
          elapsedSeconds: 0,
        },
      };
      assert.deepEqual(cost(input), {
        limit: 2.5,
        scope: "loop",
        source: "loop L proportional share (50% of $5.00)",
      });
    });
  });

  it("a loop budget without a hank ceiling is the codons' pool", () => {
    const input: ResolveCodonBudgetInput = {
      codon: undefined,
      hank: { budget: undefined, children: [loopChild("L", 1.5)], elapsedSeconds: 0 },
      loop: {
        id: "L",
        budget: { maxDollars: 2 },
        children: [done("x", 1.5), current("x")],
        elapsedSeconds: 0,
      },
    };
    assert.deepEqual(cost(input), { limit: 0.5, scope: "loop", source: "loop L shared pool" });
  });
});

describe("resolveCodonBudget: resume (prior-run spend hydrates remaining)", () => {
  it("global $1, prior run spent 0.80 -> next codon gets 0.20", () => {
    assert.deepEqual(cost(hankLevel({ maxDollars: 1 }, [done("a", 0.8), current("b")])), {
      limit: 0.2,
      scope: "hank",
      source: "shared pool",
    });
  });
  it("prior 0.80 vs global 0.50 -> 0", () => {
    assert.equal(cost(hankLevel({ maxDollars: 0.5 }, [done("a", 0.8), current("b")]))?.limit, 0);
  });
  it("a current codon's failed attempts count against the pool", () => {
    assert.equal(cost(hankLevel({ maxDollars: 1 }, [done("a", 0.3), current("b", 0.25)]))?.limit, 0.45);
  });
});

describe("resolveCodonBudget: ceilings", () => {
  it("the runtime and hank ceilings: the lower wins", () => {
    const input: ResolveCodonBudgetInput = {
      codon: undefined,
      hank: {
        budget: { maxDollars: 5 },
        runtime: { maxDollars: 3 },
        children: [current("a")],
        elapsedSeconds: 0,
      },
    };
    assert.equal(cost(input)?.limit, 3);
  });
  it("--max-cost replaces the ceiling, upward too", () => {
    const input: ResolveCodonBudgetInput = {
      codon: undefined,
      hank: {
        budget: { maxDollars: 5 },
        runtime: { maxDollars: 3 },
        cli: { maxDollars: 10 },
        children: [current("a")],
        elapsedSeconds: 0,
      },
    };
    assert.equal(cost(input)?.limit, 10);
  });
  it("without any ceiling only the codon cap limits cost", () => {
    assert.deepEqual(cost(hankLevel(undefined, [current("a")], { maxDollars: 2 })), {
      limit: 2,
      scope: "codon",
      source: "codon cap",
    });
    assert.equal(cost(hankLevel(undefined, [current("a")])), undefined);
  });
});

describe("resolveCodonBudget: duration", () => {
  it("hank maxTimeSeconds 60 with codon maxTimeSeconds 300 -> 60", () => {
    const limits = resolveCodonBudget(
      hankLevel({ maxTimeSeconds: 60 }, [current("a")], { maxTimeSeconds: 300 }),
    );
    assert.deepEqual(limits.duration, { limit: 60, scope: "hank", source: "hank remaining time" });
  });
  it("the hank's remaining time shrinks with elapsed time, prior runs included", () => {
    const input: ResolveCodonBudgetInput = {
      codon: { maxTimeSeconds: 300 },
      hank: { budget: { maxTimeSeconds: 60 }, children: [current("a")], elapsedSeconds: 45.5 },
    };
    assert.deepEqual(resolveCodonBudget(input).duration, {
      limit: 14.5,
      scope: "hank",
      source: "hank remaining time",
    });
  });
  it("--max-time replaces the hank's time ceiling; exhausted time is 0, not negative", () => {
    const input: ResolveCodonBudgetInput = {
      codon: undefined,
      hank: {
        budget: { maxTimeSeconds: 600 },
        cli: { maxTimeSeconds: 30 },
        children: [current("a")],
        elapsedSeconds: 40,
      },
    };
    assert.deepEqual(resolveCodonBudget(input).duration, {
      limit: 0,
      scope: "hank",
      source: "hank remaining time",
    });
  });
  it("the loop's remaining time binds and carries the loop's figures", () => {
    const input: ResolveCodonBudgetInput = {
      codon: { maxTimeSeconds: 60 },
      hank: { budget: { maxTimeSeconds: 1000 }, children: [loopChild("L", 0)], elapsedSeconds: 200 },
      loop: { id: "L", budget: { maxTimeSeconds: 100 }, children: [current("x")], elapsedSeconds: 70 },
    };
    assert.deepEqual(resolveCodonBudget(input).duration, {
      limit: 30,
      scope: "loop",
      source: "loop L remaining time",
      loop: { id: "L", limitSeconds: 100, elapsedBeforeSeconds: 70 },
    });
  });
  it("the codon cap binds when it is the lowest", () => {
    const limits = resolveCodonBudget(
      hankLevel({ maxTimeSeconds: 600 }, [current("a")], { maxTimeSeconds: 20 }),
    );
    assert.deepEqual(limits.duration, { limit: 20, scope: "codon", source: "codon cap" });
  });
});

describe("resolveCodonBudget: tokens and onExceeded", () => {
  it("token caps come from the codon only", () => {
    const limits = resolveCodonBudget(
      hankLevel(undefined, [current("a")], { maxOutputTokens: 4000, maxContextTokens: 150_000 }),
    );
    assert.deepEqual(limits, {
      outputTokens: { limit: 4000, scope: "codon", source: "codon cap" },
      contextTokens: { limit: 150_000, scope: "codon", source: "codon cap" },
      onExceeded: "complete",
    });
  });
  it("onExceeded: codon over loop over hank, default complete", () => {
    const base: ResolveCodonBudgetInput = {
      codon: undefined,
      hank: { budget: { onExceeded: "fail" }, children: [loopChild("L", 0)], elapsedSeconds: 0 },
      loop: { id: "L", budget: { onExceeded: "complete" }, children: [current("x")], elapsedSeconds: 0 },
    };
    assert.equal(resolveCodonBudget(base).onExceeded, "complete");
    assert.equal(resolveCodonBudget({ ...base, codon: { onExceeded: "fail" } }).onExceeded, "fail");
    const plainLoop = { id: "L", budget: undefined, children: [current("x")], elapsedSeconds: 0 };
    assert.equal(resolveCodonBudget({ ...base, loop: plainLoop }).onExceeded, "fail");
    assert.equal(resolveCodonBudget(hankLevel(undefined, [current("a")])).onExceeded, "complete");
  });
  it("no budget anywhere: no limits", () => {
    assert.deepEqual(resolveCodonBudget(hankLevel(undefined, [current("a")])), { onExceeded: "complete" });
  });
});

describe("resolveCodonBudget: input contract", () => {
  it("a pool without exactly one current child is a bug", () => {
    assert.throws(
      () => cost(hankLevel({ maxDollars: 5 }, [done("a", 1), pending("b")])),
      /exactly one current child/,
    );
    assert.throws(() => cost(hankLevel({ maxDollars: 5 }, [current("a"), current("b")])), /found 2/);
  });
});
