// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/InputArgs.java
package com.pulumi.resources;

public abstract class InputArgs {
}
