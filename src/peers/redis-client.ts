type Arg = string | number | Buffer;

/**
 * The part of an ioredis client (`import('ioredis').Redis`) that the
 * coordinator and the stores use, declared here instead of imported so the
 * published type declarations compile where ioredis, an optional peer, is not
 * installed. An ioredis client is one of these; the compiler holds that where
 * `connectRedis` hands its client to `RedisCoordinator`. A command that is
 * not listed here can be sent with `call`.
 */
export interface RedisClient {
  /** Where it connects (ioredis's options): names Redis in errors by host and port, and keeps its password out of them. */
  readonly options?: { host?: string; port?: number; path?: string; password?: string };
  get(key: string): Promise<string | null>;
  set(key: string, value: Arg): Promise<'OK'>;
  set(key: string, value: Arg, px: 'PX', milliseconds: number): Promise<'OK'>;
  set(key: string, value: Arg, px: 'PX', milliseconds: number, nx: 'NX'): Promise<'OK' | null>;
  del(...keys: string[]): Promise<number>;
  hget(key: string, field: string): Promise<string | null>;
  hgetall(key: string): Promise<Record<string, string>>;
  hset(key: string, fields: Record<string, Arg>): Promise<number>;
  hset(key: string, ...fieldsAndValues: Arg[]): Promise<number>;
  sadd(key: string, ...members: Arg[]): Promise<number>;
  srem(key: string, ...members: Arg[]): Promise<number>;
  smembers(key: string): Promise<string[]>;
  eval(script: string, numberOfKeys: number, ...keysAndArgs: Arg[]): Promise<unknown>;
  /** Any command by name: for what the methods above do not name. */
  call(command: string, ...args: Arg[]): Promise<unknown>;
  /** Registers a Lua script as a method of the client (EVALSHA, falling back to EVAL). */
  defineCommand(name: string, definition: { numberOfKeys?: number; lua: string }): void;
  ping(): Promise<string>;
  quit(): Promise<string>;
  disconnect(reconnect?: boolean): void;
}
