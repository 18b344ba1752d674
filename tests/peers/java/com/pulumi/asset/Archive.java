// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/asset/Archive.java
package com.pulumi.asset;

public abstract class Archive extends AssetOrArchive {
    protected Archive(String propName, Object value) {
        super("", propName, value);
    }
}
