;; The machine's limits as wasm sees them (bench/peak.mjs): the SIMD
;; arithmetic peak with no memory traffic, and how fast one thread reads
;; memory. Assembled at bench time by binaryen's wasm-as.
(module
  (memory (export "memory") 4096)
  ;; n turns of 6 independent multiply chains and 6 add chains fed by them
  ;; (`p = p·m`, `s = s + p`): 48 flops a turn, no loads. Every multiply is
  ;; new work: a multiply of two loop-invariant values would be computed once
  ;; by the compiler (V8 does), leaving only the adds to be timed. Six pairs
  ;; and the factor stay in registers (with seven, V8 spilled one sum).
  (func (export "muladd") (param $n i32) (param $factor f32) (result f32)
    (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128)
    (local $p4 v128) (local $p5 v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $s4 v128) (local $s5 v128)
    (local $m v128)
    ;; From the caller, so the compiler cannot rebuild it as a constant each turn.
    (local.set $m (f32x4.splat (local.get $factor)))
    (local.set $p0 (f32x4.splat (f32.const 1.0)))
    (local.set $p1 (f32x4.splat (f32.const 1.1)))
    (local.set $p2 (f32x4.splat (f32.const 1.2)))
    (local.set $p3 (f32x4.splat (f32.const 1.3)))
    (local.set $p4 (f32x4.splat (f32.const 1.4)))
    (local.set $p5 (f32x4.splat (f32.const 1.5)))
    (block $done (loop $l
      (br_if $done (i32.eqz (local.get $n)))
      (local.set $p0 (f32x4.mul (local.get $p0) (local.get $m)))
      (local.set $p1 (f32x4.mul (local.get $p1) (local.get $m)))
      (local.set $p2 (f32x4.mul (local.get $p2) (local.get $m)))
      (local.set $p3 (f32x4.mul (local.get $p3) (local.get $m)))
      (local.set $p4 (f32x4.mul (local.get $p4) (local.get $m)))
      (local.set $p5 (f32x4.mul (local.get $p5) (local.get $m)))
      (local.set $s0 (f32x4.add (local.get $s0) (local.get $p0)))
      (local.set $s1 (f32x4.add (local.get $s1) (local.get $p1)))
      (local.set $s2 (f32x4.add (local.get $s2) (local.get $p2)))
      (local.set $s3 (f32x4.add (local.get $s3) (local.get $p3)))
      (local.set $s4 (f32x4.add (local.get $s4) (local.get $p4)))
      (local.set $s5 (f32x4.add (local.get $s5) (local.get $p5)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $l)))
    (f32x4.extract_lane 0
      (f32x4.add
        (f32x4.add (f32x4.add (local.get $s0) (local.get $s1)) (f32x4.add (local.get $s2) (local.get $s3)))
        (f32x4.add (local.get $s4) (local.get $s5)))))
  ;; Reads bytes 0..8 × `seg`, `reps` times, as eight sequential streams `seg`
  ;; bytes apart (the kernels read eight weight rows at once: more streams
  ;; in flight read faster than one), 16 bytes from each a turn.
  (func (export "read") (param $seg i32) (param $reps i32) (result f32)
    (local $p i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (block $done (loop $r
      (br_if $done (i32.eqz (local.get $reps)))
      (local.set $p (i32.const 0))
      (block $end (loop $l
        (br_if $end (i32.ge_u (local.get $p) (local.get $seg)))
        (local.set $a0 (f32x4.add (local.get $a0) (v128.load (local.get $p))))
        (local.set $a1 (f32x4.add (local.get $a1) (v128.load (i32.add (local.get $p) (local.get $seg)))))
        (local.set $a2 (f32x4.add (local.get $a2) (v128.load (i32.add (local.get $p) (i32.mul (local.get $seg) (i32.const 2))))))
        (local.set $a3 (f32x4.add (local.get $a3) (v128.load (i32.add (local.get $p) (i32.mul (local.get $seg) (i32.const 3))))))
        (local.set $a0 (f32x4.add (local.get $a0) (v128.load (i32.add (local.get $p) (i32.mul (local.get $seg) (i32.const 4))))))
        (local.set $a1 (f32x4.add (local.get $a1) (v128.load (i32.add (local.get $p) (i32.mul (local.get $seg) (i32.const 5))))))
        (local.set $a2 (f32x4.add (local.get $a2) (v128.load (i32.add (local.get $p) (i32.mul (local.get $seg) (i32.const 6))))))
        (local.set $a3 (f32x4.add (local.get $a3) (v128.load (i32.add (local.get $p) (i32.mul (local.get $seg) (i32.const 7))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $l)))
      (local.set $reps (i32.sub (local.get $reps) (i32.const 1)))
      (br $r)))
    (f32x4.extract_lane 0
      (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3)))))
)
