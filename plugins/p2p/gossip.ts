/**
 * Gossipsub topics of this network (`/umbra/<network>/<name>/1`). A subscription's check runs on every message before
 * gossipsub passes it on: `accept` forwards it, `ignore` drops it without blame (stale, a duplicate), `reject` drops
 * it and lowers the forwarder's gossipsub score (the check also reports it to the ban rules). Subscriptions made
 * before the libp2p node exists take effect when it is attached.
 */
import type { GossipSub, TopicValidatorResult } from '@libp2p/gossipsub';

/** Gossipsub's verdicts, spelt here so that a node that never starts libp2p does not load gossipsub for them. */
export const Verdict = {
  Accept: 'accept',
  Ignore: 'ignore',
  Reject: 'reject',
} as const satisfies Record<keyof typeof TopicValidatorResult, `${TopicValidatorResult}`>;
export type Verdict = (typeof Verdict)[keyof typeof Verdict];

/** Decides on one message; `from` is the peer id of the node that forwarded it. */
export type GossipCheck = (data: Uint8Array, from: string) => Verdict | Promise<Verdict>;

export class Gossip {
  private pubsub: GossipSub | undefined;
  private readonly checks = new Map<string, GossipCheck>();

  constructor(private readonly network: string) {}

  subscribe(name: string, check: GossipCheck): void {
    this.checks.set(this.topicOf(name), check);
    if (this.pubsub) this.apply(this.pubsub, this.topicOf(name), check);
  }

  attach(pubsub: GossipSub): void {
    this.pubsub = pubsub;
    for (const [topic, check] of this.checks) this.apply(pubsub, topic, check);
  }

  /** Sends to the topic's peers; a message published before start, or to nobody, is dropped. */
  publish(name: string, data: Uint8Array): void {
    this.pubsub?.publish(this.topicOf(name), data).catch(() => {});
  }

  /** Peers in this node's mesh for a topic: the ones it forwards the topic's messages to. */
  meshPeers(name: string): number {
    return this.meshOf(name).length;
  }

  /**
   * Whether a peer (by peer id) is in this node's mesh for a topic. Only mesh peers are sure to get a message this
   * node forwards: a subscriber outside the mesh hears of it at a later heartbeat, if at all.
   */
  inMesh(name: string, peerId: string): boolean {
    return this.meshOf(name).includes(peerId);
  }

  private meshOf(name: string): string[] {
    // A public method of gossipsub's implementation that its exported interface leaves out.
    const pubsub = this.pubsub as (GossipSub & { getMeshPeers(topic: string): string[] }) | undefined;
    return pubsub?.getMeshPeers(this.topicOf(name)) ?? [];
  }

  private topicOf(name: string): string {
    return `/umbra/${this.network}/${name}/1`;
  }

  private apply(pubsub: GossipSub, topic: string, check: GossipCheck): void {
    pubsub.topicValidators.set(
      topic,
      (peer, message) => check(message.data, peer.toString()) as TopicValidatorResult | Promise<TopicValidatorResult>,
    );
    pubsub.subscribe(topic);
  }
}
