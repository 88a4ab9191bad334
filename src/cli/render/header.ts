import { renderBox } from "./box.ts";
import { palette, type RenderOptions } from "./style.ts";

/** Where hankweave is running, for the header and for bug reports. */
export interface RuntimeInfo {
  readonly version: string;
  readonly platform: string;
  readonly arch: string;
  readonly nodeVersion: string;
}

/** The box at the top of a report: product, version, platform and Node version. */
export function renderHeader(runtime: RuntimeInfo, options: RenderOptions): string {
  const paint = palette(options.color);
  const lines = [
    `${paint.bold("hankweave")} v${runtime.version}`,
    paint.dim(`${runtime.platform} ${runtime.arch} • node ${runtime.nodeVersion}`),
  ];
  return renderBox(lines, { width: options.width, tone: paint.dim });
}
