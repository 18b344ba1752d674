// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// The asset classes of pulumi/pulumi-java's com.pulumi.asset (io.pulumi.asset in its first releases):
// StringAsset extends Asset, constructed from a String text.
package com.pulumi.asset;

public final class StringAsset extends Asset {
    public StringAsset(String text) {
        super("text", text);
    }
}
