;; The machine's limits as wasm sees them (bench/peak.mjs): the SIMD
;; arithmetic peak with no memory traffic, and how fast one thread reads
;; memory. Assembled at bench time by binaryen's wasm-as.
(module
  (memory (export "memory") 4096)
  ;; n turns of 8 independent f32x4 multiply-then-add chains (two roundings,
  ;; as the engine's kernels): 64 flops a turn, no loads.
  (func (export "muladd") (param $n i32) (result f32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128)
    (local $x v128) (local $y v128)
    (local.set $x (f32x4.splat (f32.const 1.0000001)))
    (local.set $y (f32x4.splat (f32.const 0.9999999)))
    (block $done (loop $l
      (br_if $done (i32.eqz (local.get $n)))
      (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $a4 (f32x4.add (local.get $a4) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $a5 (f32x4.add (local.get $a5) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $a6 (f32x4.add (local.get $a6) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $a7 (f32x4.add (local.get $a7) (f32x4.mul (local.get $x) (local.get $y))))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $l)))
    (f32x4.extract_lane 0
      (f32x4.add
        (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3)))
        (f32x4.add (f32x4.add (local.get $a4) (local.get $a5)) (f32x4.add (local.get $a6) (local.get $a7))))))
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
