/* Lottery: every deposit enters the round; when the number of deposits reaches lotteryeveryXdeposit, a random
   depositor wins lotterygiveback/10000 of the pot. Anonymous deposits (ring size above 2, no known signer) are
   added to the pot without an entry: they cannot be paid out. */

Function Initialize() Uint64
10 IF EXISTS("owner") THEN GOTO 100   ' installs once: a second Initialize must not steal the contract
20 VERSION("1.0.0")
30 STORE("owner", SIGNER())
40 STORE("lotteryeveryXdeposit", 2)
50 STORE("lotterygiveback", 9900)
60 STORE("deposit_count", 0)
70 STORE("deposit_total", 0)
80 RETURN 0
100 RETURN 1
End Function

Function Lottery(value Uint64) Uint64
10 DIM deposit_count, winner AS Uint64
20 IF value == 0 THEN GOTO 200
30 STORE("deposit_total", LOAD("deposit_total") + value)
40 IF SIGNER() == "" THEN GOTO 200
50 LET deposit_count = LOAD("deposit_count") + 1
60 STORE("depositor_address" + (deposit_count - 1), SIGNER())
70 STORE("deposit_count", deposit_count)
80 IF LOAD("lotteryeveryXdeposit") > deposit_count THEN GOTO 200
90 LET winner = RANDOM(deposit_count)
100 SEND_COIN_TO_ADDRESS(LOAD("depositor_address" + winner), LOAD("lotterygiveback") * LOAD("deposit_total") / 10000)
110 STORE("deposit_count", 0)
120 STORE("deposit_total", 0)
200 RETURN 0
End Function

Function TuneLotteryParameters(input Uint64, lotteryeveryXdeposit Uint64, lotterygiveback Uint64) Uint64
10 IF isOwner() == 0 THEN GOTO 100
20 IF lotteryeveryXdeposit == 0 || lotterygiveback > 10000 THEN GOTO 100
30 STORE("lotteryeveryXdeposit", lotteryeveryXdeposit)
40 STORE("lotterygiveback", lotterygiveback)
50 RETURN 0
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

// 1 when the caller is known and is the owner.
Function isOwner() Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 RETURN LOAD("owner") == SIGNER()
100 RETURN 0
End Function
