/* Name service, installed at genesis at SCID 00…01. A name maps to its owner's raw key (String key = the name).
   Names of 6 to 63 bytes are first come, first served; shorter names only for the privileged key, which the node
   stores at genesis under the Uint64 key 0 (a Uint64 key can never collide with a name). Anonymous callers
   (ring size above 2) cannot own names. */

Function Initialize() Uint64
10 RETURN 0
End Function

Function Register(name String) Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 IF EXISTS(name) THEN GOTO 100
30 IF STRLEN(name) >= 64 THEN GOTO 100
40 IF STRLEN(name) >= 6 THEN GOTO 80
50 IF EXISTS(0) == 0 THEN GOTO 100
60 IF LOAD(0) != SIGNER() THEN GOTO 100
80 STORE(name, SIGNER())
100 RETURN 0
End Function

Function TransferOwnership(name String, newowner String) Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 IF EXISTS(name) == 0 THEN GOTO 100
30 IF LOAD(name) != SIGNER() THEN GOTO 100
40 IF ADDRESS_RAW(newowner) == "" THEN GOTO 100
50 STORE(name, ADDRESS_RAW(newowner))
60 RETURN 0
100 RETURN 1
End Function
