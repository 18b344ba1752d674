// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/core/Output.java
// (tuple, ofJson/parseJson, listBuilder/mapBuilder are left out).
package com.pulumi.core;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

public interface Output<T> {
    <U> Output<U> apply(Function<T, Output<U>> func);

    default <U> Output<U> applyValue(Function<T, U> func) {
        throw new UnsupportedOperationException();
    }

    Output<T> copy();

    Output<T> asPlaintext();

    Output<T> asSecret();

    static <T> Output<T> of(T value) {
        throw new UnsupportedOperationException();
    }

    static <T> Output<T> of(CompletableFuture<T> future) {
        throw new UnsupportedOperationException();
    }

    static <T> Output<T> ofSecret(T value) {
        throw new UnsupportedOperationException();
    }

    static <T> Output<T> ofNullable(T value) {
        throw new UnsupportedOperationException();
    }

    @SafeVarargs
    static <T> Output<List<T>> all(Output<T>... outputs) {
        throw new UnsupportedOperationException();
    }

    static <T> Output<List<T>> all(Iterable<Output<T>> outputs) {
        throw new UnsupportedOperationException();
    }

    static Output<String> format(String formattableString, Object... arguments) {
        throw new UnsupportedOperationException();
    }

    static <L, R> Output<Either<L, R>> ofLeft(L value) {
        throw new UnsupportedOperationException();
    }

    static <L, R> Output<Either<L, R>> ofRight(R value) {
        throw new UnsupportedOperationException();
    }

    static <L, R> Output<Either<L, R>> ofLeft(Output<L> value) {
        throw new UnsupportedOperationException();
    }

    static <L, R> Output<Either<L, R>> ofRight(Output<R> value) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> copyOfList(List<E> values) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> concatList(Output<List<E>> left, Output<List<E>> right) {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> copyOfMap(Map<String, V> values) {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> concatMap(Output<Map<String, V>> left, Output<Map<String, V>> right) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList() {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6, E e7) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9, E e10) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9, E e10, E e11) {
        throw new UnsupportedOperationException();
    }

    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9, E e10, E e11, E e12) {
        throw new UnsupportedOperationException();
    }

    @SafeVarargs
    static <E> Output<List<E>> ofList(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9, E e10, E e11, E e12, E... others) {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> ofMap() {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> ofMap(String key1, V value1) {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> ofMap(String key1, V value1, String key2, V value2) {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> ofMap(String key1, V value1, String key2, V value2, String key3, V value3) {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> ofMap(String key1, V value1, String key2, V value2, String key3, V value3, String key4, V value4) {
        throw new UnsupportedOperationException();
    }

    static <V> Output<Map<String, V>> ofMap(String key1, V value1, String key2, V value2, String key3, V value3, String key4, V value4, String key5, V value5) {
        throw new UnsupportedOperationException();
    }

}
