export declare const MAX_JSON_DEPTH: number;
export declare const TOO_DEEP_MESSAGE: string;
export declare function nestsDeeperThan(text: string, limit: number): boolean;
