//! The BERT encoder MiniLM is, written for inference on a CPU. candle-transformers'
//! `BertModel` gives the same vectors (to 2·10⁻⁶: a test keeps components it gave),
//! but `perf` on an index run put a fifth of its CPU in a scalar libm `erf` (every
//! GELU) and the `exp` inside it, beside 56 % in the matrix kernel; its softmax is
//! five separate ops, and query, key and value are three products and three copies
//! into heads. Here query, key and value are one product and one copy (the
//! attention scale folded into the query weights at load), the softmax and layer
//! norms are candle's fused kernels and GELU is [`super::gelu`].

use super::gelu::Gelu;
use candle_core::{D, DType, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, VarBuilder};
use serde::Deserialize;

/// The fields of a BERT `config.json` this encoder reads.
#[derive(Debug, Deserialize)]
pub struct Config {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub hidden_act: String,
    /// Only `absolute` (the default) is implemented.
    #[serde(default = "absolute")]
    pub position_embedding_type: String,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub layer_norm_eps: f64,
}

fn absolute() -> String {
    "absolute".into()
}

impl Config {
    /// What this encoder cannot run, said before any weight is read.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.hidden_act != "gelu" {
            return Err(format!(
                "hidden_act {:?} (this encoder runs gelu)",
                self.hidden_act
            ));
        }
        if self.position_embedding_type != "absolute" {
            return Err(format!(
                "position_embedding_type {:?} (this encoder runs absolute)",
                self.position_embedding_type
            ));
        }
        if self.num_attention_heads == 0
            || !self.hidden_size.is_multiple_of(self.num_attention_heads)
        {
            return Err(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                self.hidden_size, self.num_attention_heads
            ));
        }
        Ok(())
    }
}

/// Token ids and a mask in, hidden states out (pooling is the caller's).
pub struct Encoder {
    words: Embedding,
    /// Position embeddings with token type 0's added: every input is one segment.
    positions: Tensor,
    embed_norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
}

struct Layer {
    /// Query, key and value stacked: `[3 · hidden, hidden]`.
    qkv: Linear,
    attn_out: Linear,
    attn_norm: LayerNorm,
    up: Linear,
    down: Linear,
    out_norm: LayerNorm,
}

impl Encoder {
    pub fn load(vb: VarBuilder, cfg: &Config) -> Result<Encoder> {
        if let Err(e) = cfg.check() {
            candle_core::bail!("{e}");
        }
        let vb = if vb.contains_tensor("bert.embeddings.word_embeddings.weight") {
            vb.pp("bert")
        } else {
            vb
        };
        let h = cfg.hidden_size;
        let emb = vb.pp("embeddings");
        let words = candle_nn::embedding(cfg.vocab_size, h, emb.pp("word_embeddings"))?;
        let types = emb.get((cfg.type_vocab_size, h), "token_type_embeddings.weight")?;
        let positions = emb
            .get(
                (cfg.max_position_embeddings, h),
                "position_embeddings.weight",
            )?
            .broadcast_add(&types.get(0)?)?;
        let embed_norm = candle_nn::layer_norm(h, cfg.layer_norm_eps, emb.pp("LayerNorm"))?;
        let scale = 1.0 / ((h / cfg.num_attention_heads) as f64).sqrt();
        let layers = (0..cfg.num_hidden_layers)
            .map(|i| Layer::load(vb.pp(format!("encoder.layer.{i}")), cfg, scale))
            .collect::<Result<Vec<_>>>()?;
        Ok(Encoder {
            words,
            positions,
            embed_norm,
            layers,
            heads: cfg.num_attention_heads,
        })
    }

    /// Hidden states `[batch, seq, hidden]` for token ids and a 0/1 attention mask,
    /// both `[batch, seq]` (u32). Padding rows of the result are not meaningful
    /// (pooling masks them).
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (b, s) = ids.dims2()?;
        let x = self
            .words
            .forward(ids)?
            .broadcast_add(&self.positions.narrow(0, 0, s)?)?;
        let h = x.dim(D::Minus1)?;
        let packing = Packing::new(&mask.flatten_all()?.to_vec1::<u32>()?, ids.device())?;
        let mut x = self
            .embed_norm
            .forward(&packing.pack(&x.reshape((b * s, h))?)?)?;
        // Padding gets the lowest float before the softmax, as in BERT, so it
        // weighs nothing.
        let bias =
            ((mask.to_dtype(DType::F32)? - 1.0)? * f64::from(f32::MAX))?.reshape((b, 1, 1, s))?;
        for layer in &self.layers {
            x = layer.forward(&x, &bias, &packing, (b, s), self.heads)?;
        }
        packing.unpack(&x)?.reshape((b, s, h))
    }
}

/// The text's word pieces without the padding, and the way back.
///
/// A pass pads every text to its longest, and `/metrics` showed a third of the
/// pieces a loaded server ran through the model were padding (200 streams: 11k
/// of 34k). Every linear layer and norm (nearly all of the work: attention over
/// a few dozen pieces is about 2 % of it) treats rows independently, so those
/// run on the text's rows alone; only attention, which needs the `[batch, seq]`
/// layout, sees the padded form, where masked keys weigh nothing whatever their
/// rows hold.
struct Packing {
    /// Per real piece, its row in the padded layout; `None` when nothing is padded
    /// (or nothing is real: an empty pass).
    real: Option<Tensor>,
    /// Per padded row, a packed row (a padding row takes any: it is masked).
    padded: Option<Tensor>,
}

impl Packing {
    fn new(mask: &[u32], device: &candle_core::Device) -> Result<Packing> {
        let real: Vec<u32> = (0u32..)
            .zip(mask)
            .filter(|(_, m)| **m != 0)
            .map(|(i, _)| i)
            .collect();
        if real.len() == mask.len() || real.is_empty() {
            return Ok(Packing {
                real: None,
                padded: None,
            });
        }
        let mut next = 0u32;
        let padded: Vec<u32> = mask
            .iter()
            .map(|m| {
                if *m != 0 {
                    next += 1;
                    next - 1
                } else {
                    next.saturating_sub(1)
                }
            })
            .collect();
        Ok(Packing {
            real: Some(Tensor::new(real.as_slice(), device)?),
            padded: Some(Tensor::new(padded.as_slice(), device)?),
        })
    }

    /// `[batch · seq, _]` → `[pieces, _]`.
    fn pack(&self, x: &Tensor) -> Result<Tensor> {
        match &self.real {
            Some(i) => x.index_select(i, 0),
            None => Ok(x.clone()),
        }
    }

    /// `[pieces, _]` → `[batch · seq, _]`.
    fn unpack(&self, x: &Tensor) -> Result<Tensor> {
        match &self.padded {
            Some(i) => x.index_select(i, 0),
            None => Ok(x.clone()),
        }
    }
}

impl Layer {
    fn load(vb: VarBuilder, cfg: &Config, scale: f64) -> Result<Layer> {
        let h = cfg.hidden_size;
        let attn = vb.pp("attention");
        let part = |name: &str, scale: f64| -> Result<(Tensor, Tensor)> {
            let vb = attn.pp("self").pp(name);
            Ok((
                (vb.get((h, h), "weight")? * scale)?,
                (vb.get(h, "bias")? * scale)?,
            ))
        };
        let (qw, qb) = part("query", scale)?;
        let (kw, kb) = part("key", 1.0)?;
        let (vw, vbias) = part("value", 1.0)?;
        let qkv = Linear::new(
            Tensor::cat(&[qw, kw, vw], 0)?,
            Some(Tensor::cat(&[qb, kb, vbias], 0)?),
        );
        let i = cfg.intermediate_size;
        let eps = cfg.layer_norm_eps;
        Ok(Layer {
            qkv,
            attn_out: candle_nn::linear(h, h, attn.pp("output").pp("dense"))?,
            attn_norm: candle_nn::layer_norm(h, eps, attn.pp("output").pp("LayerNorm"))?,
            up: candle_nn::linear(h, i, vb.pp("intermediate").pp("dense"))?,
            down: candle_nn::linear(i, h, vb.pp("output").pp("dense"))?,
            out_norm: candle_nn::layer_norm(h, eps, vb.pp("output").pp("LayerNorm"))?,
        })
    }

    /// `x` is `[pieces, hidden]`, the text's pieces without padding (see
    /// [`Packing`]): every linear layer is one matrix product over them.
    fn forward(
        &self,
        x: &Tensor,
        bias: &Tensor,
        packing: &Packing,
        (b, s): (usize, usize),
        heads: usize,
    ) -> Result<Tensor> {
        let h = x.dim(1)?;
        let qkv = packing
            .unpack(&self.qkv.forward(x)?)?
            .reshape((b, s, 3, heads, h / heads))?
            .permute((2, 0, 3, 1, 4))?
            .contiguous()?;
        let (q, k, v) = (qkv.get(0)?, qkv.get(1)?, qkv.get(2)?);
        let scores = q.matmul(&k.t()?)?.broadcast_add(bias)?;
        let context = candle_nn::ops::softmax_last_dim(&scores)?
            .matmul(&v)?
            .transpose(1, 2)?
            .reshape((b * s, h))?;
        let context = packing.pack(&context)?;
        let x = self
            .attn_norm
            .forward(&(self.attn_out.forward(&context)? + x)?)?;
        // In place: `up` is the new tensor `Linear` returned, shared with nothing.
        let up = self.up.forward(&x)?;
        up.inplace_op1(&Gelu)?;
        self.out_norm.forward(&(self.down.forward(&up)? + x)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str) -> Config {
        serde_json::from_str(&format!(
            r#"{{"vocab_size": 30522, "hidden_size": 384, "num_hidden_layers": 6,
                "num_attention_heads": 12, "intermediate_size": 1536, "hidden_act": "gelu",
                "max_position_embeddings": 512, "type_vocab_size": 2,
                "layer_norm_eps": 1e-12{extra}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_bert_this_encoder_cannot_run_is_refused_with_the_reason() {
        assert!(config("").check().is_ok());
        assert!(
            config(r#", "position_embedding_type": "absolute""#)
                .check()
                .is_ok()
        );
        let relative = config(r#", "position_embedding_type": "relative_key""#);
        assert!(relative.check().unwrap_err().contains("relative_key"));
        let mut other = config("");
        other.hidden_act = "relu".into();
        assert!(other.check().unwrap_err().contains("relu"));
        other = config("");
        other.num_attention_heads = 5;
        assert!(other.check().unwrap_err().contains("multiple"));
    }
}
