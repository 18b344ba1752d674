// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/asset/AssetOrArchive.java
package com.pulumi.asset;

public abstract class AssetOrArchive {
    protected AssetOrArchive(String sigKey, String propName, Object value) {
    }
}
