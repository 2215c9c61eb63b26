export declare const TABLE_SIZE: number;
export declare function colormapsSource(): string;
