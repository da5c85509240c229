/* Asset exchange: anyone deposits assets; Interchange pays the signer half of the incoming asset deposited with
   the call, in the outgoing asset. Asset ids are passed as H arguments (32 raw bytes). */

Function Initialize() Uint64
10 IF EXISTS("owner") THEN GOTO 100
20 STORE("owner", SIGNER())
30 RETURN 0
100 RETURN 1
End Function

Function Deposit() Uint64
10 RETURN 0
End Function

Function Interchange(incoming String, outgoing String) Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 SEND_ASSET_TO_ADDRESS(SIGNER(), ASSETVALUE(incoming) / 2, outgoing)
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

Function Withdraw(amount Uint64, asset String) Uint64
10 IF isOwner() == 0 THEN GOTO 100
20 SEND_ASSET_TO_ADDRESS(SIGNER(), amount, asset)
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
