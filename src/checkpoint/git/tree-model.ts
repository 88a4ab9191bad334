/**
 * The tracked set of a checkpoint held in memory as git's tree structure, so a commit that changed a few
 * files writes only the trees on those files' paths: what `update-index` + `write-tree` do, without a
 * process and without the index. Loaded from `git ls-tree -r -t`, changed path by path, and written back
 * as tree objects whose ids are exactly git's (same entry order, modes and bytes).
 */
export type FileMode = "100644" | "100755" | "120000" | "160000";

export interface FileEntry {
  readonly kind: "file";
  readonly mode: FileMode;
  readonly id: string;
}

interface DirEntry {
  readonly kind: "dir";
  readonly node: TreeNode;
}

type Entry = FileEntry | DirEntry;

class TreeNode {
  readonly entries = new Map<string, Entry>();
  /** The tree object id; undefined once something below changed, until the next `write`. */
  id: string | undefined;
  /** Names in git's tree order; recomputed only when names come or go. */
  #sorted: string[] | undefined;

  constructor(id?: string) {
    this.id = id;
  }

  set(name: string, entry: Entry): void {
    if (!this.entries.has(name) || this.entries.get(name)?.kind !== entry.kind) this.#sorted = undefined;
    this.entries.set(name, entry);
  }

  delete(name: string): void {
    if (this.entries.delete(name)) this.#sorted = undefined;
  }

  sortedNames(): string[] {
    if (this.#sorted === undefined) {
      const key = (name: string) => (this.entries.get(name)?.kind === "dir" ? `${name}/` : name);
      this.#sorted = [...this.entries.keys()].sort((a, b) => compareBytes(key(a), key(b)));
    }
    return this.#sorted;
  }
}

/** Non-ASCII: for these, UTF-16 order and UTF-8 byte order may differ. */
const NON_ASCII = /[^ -~]/;

/** Git orders tree entries by the bytes of their names, a directory's name taken with a trailing `/`. */
function compareBytes(a: string, b: string): number {
  if (!NON_ASCII.test(a) && !NON_ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

export class TreeModel {
  readonly #root: TreeNode;

  private constructor(root: TreeNode) {
    this.#root = root;
  }

  /**
   * The model of tree `rootId` from `git ls-tree -r -t -z --full-tree <rootId>`: NUL-terminated records
   * `<mode> <type> <id>\t<path>`, each directory listed before its contents.
   */
  static parse(rootId: string, lsTree: string): TreeModel {
    const model = new TreeModel(new TreeNode(rootId));
    for (const record of lsTree.split("\0")) {
      if (record === "") continue;
      const tab = record.indexOf("\t");
      const [mode, type, id] = record.slice(0, tab).split(" ");
      const path = record.slice(tab + 1);
      if (mode === undefined || id === undefined) throw new Error(`unexpected ls-tree record: ${record}`);
      const { parent, name } = model.#parentOf(path, false);
      if (parent === undefined) continue;
      if (type === "tree") parent.set(name, { kind: "dir", node: new TreeNode(id) });
      else parent.set(name, { kind: "file", mode: mode as FileMode, id });
    }
    return model;
  }

  /** The recorded file at `path`, if any. */
  file(path: string): FileEntry | undefined {
    const entry = this.#entry(path);
    return entry?.kind === "file" ? entry : undefined;
  }

  isDirectory(path: string): boolean {
    return this.#entry(path)?.kind === "dir";
  }

  /** Every recorded file at or under `path` (the whole set for ""). */
  filesUnder(path: string): string[] {
    if (path === "") return walk(this.#root, "");
    const entry = this.#entry(path);
    if (entry === undefined) return [];
    return entry.kind === "file" ? [path] : walk(entry.node, `${path}/`);
  }

  /** Records a file, replacing a file or directory in its way (a file may become a directory and back). */
  setFile(path: string, entry: FileEntry): void {
    const { parent, name } = this.#parentOf(path, true);
    if (parent === undefined) return;
    parent.set(name, entry);
  }

  /** Forgets the file at `path`; directories left empty go too, as git trees cannot hold them. */
  removeFile(path: string): void {
    const chain: Array<{ node: TreeNode; name: string }> = [];
    let node = this.#root;
    const names = path.split("/");
    for (const [index, name] of names.entries()) {
      chain.push({ node, name });
      const entry = node.entries.get(name);
      if (entry === undefined) return;
      if (index === names.length - 1) {
        if (entry.kind !== "file") return;
        break;
      }
      if (entry.kind !== "dir") return;
      node = entry.node;
    }
    for (const link of chain) link.node.id = undefined;
    for (let at = chain.length - 1; at >= 0; at--) {
      const link = chain[at];
      if (link === undefined) break;
      link.node.delete(link.name);
      if (link.node.entries.size > 0 || at === 0) break;
    }
  }

  /**
   * Writes the trees that changed since they were read or last written, children first, through
   * `writeTree` (which returns the id of the body it stores), and returns the root tree's id.
   */
  write(writeTree: (body: Buffer) => string): string {
    return writeNode(this.#root, writeTree);
  }

  #entry(path: string): Entry | undefined {
    let node = this.#root;
    const names = path.split("/");
    for (const [index, name] of names.entries()) {
      const entry = node.entries.get(name);
      if (entry === undefined || index === names.length - 1) return entry;
      if (entry.kind !== "dir") return undefined;
      node = entry.node;
    }
    return undefined;
  }

  /**
   * The directory that holds `path`, marking every directory on the way as changed when `forWrite`;
   * missing directories are created and files in the way replaced by directories.
   */
  #parentOf(path: string, forWrite: boolean): { parent: TreeNode | undefined; name: string } {
    const names = path.split("/");
    const name = names.pop() ?? "";
    let node = this.#root;
    if (forWrite) node.id = undefined;
    for (const dir of names) {
      const entry = node.entries.get(dir);
      let next: TreeNode;
      if (entry?.kind === "dir") next = entry.node;
      else {
        next = new TreeNode();
        node.set(dir, { kind: "dir", node: next });
      }
      if (forWrite) next.id = undefined;
      node = next;
    }
    return { parent: name === "" ? undefined : node, name };
  }
}

function walk(node: TreeNode, prefix: string): string[] {
  const out: string[] = [];
  for (const [name, entry] of node.entries) {
    if (entry.kind === "file") out.push(`${prefix}${name}`);
    else out.push(...walk(entry.node, `${prefix}${name}/`));
  }
  return out;
}

function writeNode(node: TreeNode, writeTree: (body: Buffer) => string): string {
  if (node.id !== undefined) return node.id;
  const parts: Buffer[] = [];
  for (const name of node.sortedNames()) {
    const entry = node.entries.get(name);
    if (entry === undefined) continue;
    const mode = entry.kind === "dir" ? "40000" : entry.mode;
    const id = entry.kind === "dir" ? writeNode(entry.node, writeTree) : entry.id;
    parts.push(Buffer.from(`${mode} ${name}\0`, "utf8"), Buffer.from(id, "hex"));
  }
  node.id = writeTree(Buffer.concat(parts));
  return node.id;
}
