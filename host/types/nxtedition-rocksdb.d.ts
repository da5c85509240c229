// The binding ships no typings; RocksDbStore describes the part of its API it uses.
declare module '@nxtedition/rocksdb' {
  export class RocksLevel {
    constructor(location: string, options?: object);
  }
}
