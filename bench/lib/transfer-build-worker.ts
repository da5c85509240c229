/**
 * A worker thread of bench/lib/transfer-builders.ts: builds one-payload transfers of 0 coin (fee 0, the simulator's
 * minimum) from registered accounts that no transfer has touched, so every ring member holds (Y, G), the encryption
 * of zero a registration starts with; a job with contract arguments is a contract transaction. Answers each batch of
 * jobs with the transactions' bytes in hex.
 */
import { parentPort } from 'node:worker_threads';
import { ElGamal } from '../../core-native/ts/elgamal.js';
import { loadCore } from '../../core-native/ts/index.js';
import { fromHex } from '../../protocol/bytes.js';
import { encodeRpcArguments } from '../../protocol/rpc-arguments.js';
import { TxType } from '../../protocol/transaction.js';
import { buildTransfer } from '../../protocol/transfer-builder.js';
import { NATIVE_SCID } from '../../protocol/transfer-checks.js';
import type { BuildBatch } from './transfer-builders.js';

const core = await loadCore({ impl: 'native' });
const noArgs = encodeRpcArguments([]);

parentPort!.on('message', ({ domain, reference, jobs }: BuildBatch) => {
  const gens = core.generators(domain);
  const elgamal = new ElGamal(core, gens.G);
  const ref = {
    height: BigInt(reference.height),
    blid: fromHex(reference.blid),
    roothash: fromHex(reference.roothash),
  };
  const txs = jobs.map((job) => {
    const ring = job.ring.map((key) => fromHex(key));
    return Buffer.from(
      buildTransfer(core, gens, {
        type: job.scArgs ? TxType.SmartContract : TxType.Normal,
        secretKey: fromHex(job.secretKey),
        reference: ref,
        scData: job.scArgs && encodeRpcArguments(job.scArgs),
        payloads: [
          {
            scid: NATIVE_SCID,
            ring,
            senderIndex: job.senderIndex,
            receiverIndex: job.receiverIndex,
            amount: 0n,
            burn: 0n,
            fee: 0n,
            args: noArgs,
          },
        ],
        balanceAt: (_asset, key) => {
          const start = elgamal.registrationBalance(core.g1Decompress(key));
          return { nonceHeight: 0n, L: core.g1Compress(start.L), R: core.g1Compress(start.R) };
        },
        senderBalance: () => 0n,
      }).bytes,
    ).toString('hex');
  });
  parentPort!.postMessage(txs);
});
