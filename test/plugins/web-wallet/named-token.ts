/**
 * A token that names itself, for the web wallet's tests: its symbol and name stored as contract variables (read by
 * the wallet to show it), and 10 000 of it granted to its installer, who can then pass some on.
 */
export const NAMED_TOKEN_SYMBOL = 'TKX';

export const NAMED_TOKEN_CONTRACT = `Function InitializePrivate() Uint64
10 IF EXISTS("symbol") THEN GOTO 100
20 STORE("symbol", "${NAMED_TOKEN_SYMBOL}")
30 STORE("name", "Token X")
40 SEND_ASSET_TO_ADDRESS(SIGNER(), 1000000000, SCID())
50 RETURN 0
100 RETURN 1
End Function
`;
