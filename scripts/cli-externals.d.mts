export declare const LAZY_DEPENDENCIES: readonly string[];
export declare const AGENT_SDKS: readonly string[];
export declare const CLI_EXTERNALS: string[];
