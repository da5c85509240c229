/** A contract whose Withdraw only its owner — a key nobody holds — can call: every Withdraw panics at line 20. */
export const VAULT_CONTRACT = `Function Initialize() Uint64
10 STORE("owner", "someone else")
20 RETURN 0
End Function

Function Withdraw() Uint64
10 IF SIGNER() == LOAD("owner") THEN GOTO 30
20 PANIC()
30 RETURN 0
End Function
`;
