/* A minimal private asset: the contract's own asset, issued 1:1 against deposited coin. */

Function InitializePrivate() Uint64
10 RETURN 0
End Function

// Pays the signer as many units of this asset as coin deposited (the coin stays in the contract).
Function IssueAsset() Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 SEND_ASSET_TO_ADDRESS(SIGNER(), COINVALUE(), SCID())
30 RETURN 0
100 RETURN 1
End Function
