/* Private token TOKENX: the contract's own asset (its asset id is its SCID), issued 1:1 against coin and
   converted back 1:1. Holders' balances are encrypted on chain; the contract never learns them. */

Function InitializePrivate() Uint64
10 IF EXISTS("owner") THEN GOTO 100
20 IF SIGNER() == "" THEN GOTO 100   ' the initial grant needs a known installer
30 VERSION("1.0.0")
40 STORE("owner", SIGNER())
45 STORE("symbol", "TOKENX")   ' the name wallets show for the asset
50 SEND_ASSET_TO_ADDRESS(SIGNER(), 1600000, SCID())
60 RETURN 0
100 RETURN 1
End Function

// Pays the signer as many TOKENX as coin deposited.
Function IssueTOKENX() Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 SEND_ASSET_TO_ADDRESS(SIGNER(), COINVALUE(), SCID())
30 RETURN 0
100 RETURN 1
End Function

// Pays the signer as much coin as TOKENX deposited.
Function ConvertTOKENX() Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 SEND_COIN_TO_ADDRESS(SIGNER(), ASSETVALUE(SCID()))
30 RETURN 0
100 RETURN 1
End Function

Function TransferOwnership(newowner String) Uint64
10 IF isOwner() == 0 THEN GOTO 100
20 IF ADDRESS_RAW(newowner) == "" THEN GOTO 100
30 STORE("tmpowner", ADDRESS_RAW(newowner))
40 RETURN 0
100 RETURN 1
End Function

Function ClaimOwnership() Uint64
10 IF EXISTS("tmpowner") == 0 THEN GOTO 100
20 IF LOAD("tmpowner") != SIGNER() THEN GOTO 100
30 STORE("owner", SIGNER())
40 DELETE("tmpowner")
50 RETURN 0
100 RETURN 1
End Function

Function Withdraw(amount Uint64) Uint64
10 IF isOwner() == 0 THEN GOTO 100
20 SEND_COIN_TO_ADDRESS(SIGNER(), amount)
30 RETURN 0
100 RETURN 1
End Function

Function UpdateCode(code String) Uint64
10 IF isOwner() == 0 THEN GOTO 100
20 UPDATE_SC_CODE(code)
30 RETURN 0
100 RETURN 1
End Function

Function isOwner() Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 RETURN LOAD("owner") == SIGNER()
100 RETURN 0
End Function
