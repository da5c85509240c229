/** A connected push client (a WebSocket) as RPC servers and methods see it: where its messages go, what it hears. */
export interface PushClient {
  readonly send: (message: string) => void;
  /** The topics it subscribed to; undefined until its first subscription, while it hears the plain notifications. */
  topics?: Set<string>;
}
